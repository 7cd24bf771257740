import Foundation
import SyncStore
import Testing

/// A seed store given to the commands that put a store's content into a container, or change whose
/// it is, through the real binary: `sync` (on, off), `rekey`, `archive create`, `peers`, `peers
/// forget` and `account --set` refuse it with exit 65, naming it, and neither the seed store nor
/// the container is changed (`docs/seeding.md`, "Seed stores").
@Suite("seed stores are never synced")
struct SeedStoreRefusalTests {
    /// Every file under `folder` with its bytes (the container's content, to compare before and after).
    private func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in FileManager.default.subpaths(atPath: folder) ?? [] {
            var isFolder: ObjCBool = false
            let path = "\(folder)/\(name)"
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    @Test("sync, rekey, archive create, peers, peers forget and account --set refuse a seed store; nothing is written")
    func everyContainerCommandRefusesASeedStore() throws {
        let work = try SeedStoreCommandTests.Workspace(["A", "B"])
        defer { work.directory.remove() }
        #expect(try work.build("A", ["--from", SeedStoreCommandTests.seedSet]).status == 0)
        // A container with the user stores' namespace in it, so that `peers forget` has a peer to forget.
        for peer in ["A", "B"] { #expect(try StorekeepProcess.run(["sync", work.store(peer), "--container", work.container]).status == 0) }
        let seedStore = work.seedStore("A")
        let seedBytes = try Data(contentsOf: URL(fileURLWithPath: seedStore))
        let container = try snapshot(work.container)
        let commands: [(String, [String])] = [
            ("sync", ["sync", seedStore, "--container", work.container]),
            ("sync --disable", ["sync", seedStore, "--container", work.container, "--disable"]),
            ("rekey", ["rekey", seedStore, "--container", work.container, "--to", "Ratings-v2"]),
            ("rekey --dry-run", ["rekey", seedStore, "--container", work.container, "--to", "Ratings-v2", "--dry-run"]),
            ("archive create", ["archive", "create", seedStore, "--container", work.container]),
            ("peers", ["peers", "list", seedStore, "--container", work.container]),
            ("peers forget", ["peers", "forget", seedStore, "--container", work.container, "--peer", "B"]),
            ("account --set", ["account", seedStore, "--set", "alice"]),
            ("account --set --keep-local", ["account", seedStore, "--set", "alice", "--keep-local"]),
        ]
        for (name, arguments) in commands {
            let result = try StorekeepProcess.run(arguments + ["--json"])
            #expect(result.status == 65, "\(name): \(result)")
            #expect(result.stderr.contains(seedStore) && result.stderr.contains("seed store of configuration Postcodes"), "\(name): \(result.stderr)")
            #expect(result.stderr.contains("never synced") && result.stderr.contains("\nhint: "), "\(name): \(result.stderr)")
            #expect(try result.jsonError()["kind"] as? String == "badInput", "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: seedStore)) == seedBytes, "\(name) wrote the seed store")
            #expect(try snapshot(work.container) == container, "\(name) wrote into the container")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(work.container)/Ratings-v2"), "no namespace was made for the rekey")
        #expect(try SyncStore.open(at: seedStore, readOnly: true).metadata.accountToken == nil)
    }

    @Test("the library refuses to export a seed store's transactions or a baseline of it, or to give it an account")
    func libraryRefusesASeedStore() throws {
        let work = try SeedStoreCommandTests.Workspace()
        defer { work.directory.remove() }
        #expect(try work.build("A", ["--from", SeedStoreCommandTests.seedSet]).status == 0)
        let seed = try SyncStore.open(at: work.seedStore("A"), readOnly: true)
        let refusals: [(String, () throws -> Void)] = [
            ("exportTransactions", { _ = try seed.exportTransactions(after: 0, into: TransactionLogEncoder(), maxChanges: .max) }),
            ("exportBaseline", { _ = try seed.exportBaseline(into: BaselineEncoder()) }),
            ("setSyncEnabled", { try seed.setSyncEnabled(true, container: work.container) }),
            ("setAccount", { try seed.setAccount("alice", keepingLocalData: true) }),
            ("switchContentName", { try seed.switchContentName(to: "Other", exportedThrough: 0, description: "test") }),
        ]
        for (name, call) in refusals {
            #expect(throws: StoreError.self, "\(name)") { try call() }
            do { try call() } catch let error as StoreError {
                #expect(error.message.contains("seed store of configuration Postcodes") && error.message.contains("never synced"), "\(name): \(error)")
            }
        }
    }
}
