import Foundation
import ObjectModel
import StoreMaintenance
import SyncContainer
import SyncStore
import Testing

/// Accounts in the container at the library level: logs carry their account, and a log written
/// before they did (no `account` key) counts as its peer's, by the peer's manifest.
@Suite struct SyncAccountTests {
    let folder: URL
    let container: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-account-\(UUID().uuidString)")
        container = folder.appendingPathComponent("container").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    }

    /// A store of peer `peer` for `account` holding one Tag named after the peer.
    private func store(_ peer: String, account: String?) throws -> String {
        let path = folder.appendingPathComponent("\(peer).store").path
        let store = try SyncStore.create(at: path, model: SyncSimulationModel.model(), contentName: "Acc", peerID: peer, accountToken: account)
        try store.save(author: "app") { tx in _ = try tx.insert("Tag", id: GlobalID("tag-\(peer)"), values: ["name": .string(peer)]) }
        return path
    }

    private func namespace(of path: String) throws -> SyncNamespace {
        let store = try SyncStore.open(at: path, readOnly: true)
        return SyncNamespace(container: container, contentName: "Acc", modelHash: store.metadata.modelHash)
    }

    /// Rewrites every log of `peer` as a storekeep that did not carry accounts wrote it: no `account` key.
    private func stripAccounts(of peer: String, in namespace: SyncNamespace) throws {
        for name in try namespace.logs(of: peer).logs {
            var (header, body) = try namespace.readLog(name, of: peer)
            header.account = nil
            let path = "\(namespace.logFolder(peer))/\(name.fileName)"
            let bytes = try LogFile.encode(header: header, body: body)
            #expect(!String(decoding: bytes.prefix(600), as: UTF8.self).contains("\"account\""))
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test("a log carries its store's account; one without the key counts as its peer's by the manifest, or as nobody's without one")
    func logsWithoutAnAccount() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = try store("A", account: "alice")
        _ = try StoreSynchronizer(path: a, container: container).run()
        let namespace = try namespace(of: a)
        let name = try #require(try namespace.logs(of: "A").logs.first)
        #expect(try namespace.readLog(name, of: "A").0.account == "alice")

        // An old log: no account key. The manifest still says alice: alice's B imports it.
        try stripAccounts(of: "A", in: namespace)
        let b = try store("B", account: "alice")
        let onB = try StoreSynchronizer(path: b, container: container).run()
        #expect(!onB.hasErrors, "\(onB.findings)")
        #expect(try SyncStore.open(at: b, readOnly: true).record(GlobalID("tag-A")) != nil)

        // Without the manifest, nothing says whose the old log is: an account's store leaves it
        // out; a store without an account takes it.
        try FileManager.default.removeItem(atPath: namespace.manifestPath("A"))
        let c = try store("C", account: "alice")
        let onC = try StoreSynchronizer(path: c, container: container).run()
        #expect(onC.findings.contains { $0.code == "account.mismatch" && $0.peer == "A" }, "\(onC.findings)")
        #expect(try SyncStore.open(at: c, readOnly: true).record(GlobalID("tag-A")) == nil)
        #expect(try SyncStore.open(at: c, readOnly: true).record(GlobalID("tag-B")) != nil, "alice's B is imported")
    }

    @Test("a header decodes without the account key (logs and baselines written before it)")
    func headersWithoutAccountDecode() throws {
        let log = #"{"format":1,"contentName":"X","modelHash":"h","peer":"P","firstSequence":1,"lastSequence":1,"transactions":1,"changes":1,"latestClock":5,"compression":"none","bodyBytes":0,"rawBytes":0,"created":0}"#
        #expect(try JSONDecoder().decode(LogHeader.self, from: Data(log.utf8)).account == nil)
        let baseline = #"{"format":1,"contentName":"X","modelHash":"h","peer":"P","vector":{},"latestClock":5,"records":0,"memberships":0,"tombstones":0,"reason":"archive","compression":"none","bodyBytes":0,"rawBytes":0,"created":0}"#
        #expect(try JSONDecoder().decode(BaselineHeader.self, from: Data(baseline.utf8)).account == nil)
        // A store without an account writes headers without the key, as before.
        let encoded = try JSONEncoder().encode(LogHeader(contentName: "X", modelHash: "h", peer: "P", firstSequence: 1, lastSequence: 1,
                                                         transactions: 1, changes: 1, latestClock: 5))
        #expect(!String(decoding: encoded, as: UTF8.self).contains("account"))
    }
}
