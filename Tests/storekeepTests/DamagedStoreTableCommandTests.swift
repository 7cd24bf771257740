import Foundation
import GRDB
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Stores whose own tables (`sk_…`) hold what storekeep never writes there: `info` and `sync` exit
/// 65 naming the table, row and column (GRDB's typed reads stopped the process, exit 132), and
/// `check` reports `store.damagedValue` instead of saying ok. The built binary, real SQLite files.
@Suite("damaged storekeep tables: info, sync and check")
struct DamagedStoreTableCommandTests {
    struct Damage: Sendable, CustomStringConvertible {
        let description: String
        let sql: String
        /// What the error of `info` and `sync` names.
        let names: [String]
        /// The column `check` names.
        let column: String
        /// Whether `info` reads the damaged table (else it succeeds).
        let infoReads: Bool
    }

    static let damages: [Damage] = [
        .init(description: "sk_metadata.value, a blob that is not UTF-8", sql: "UPDATE sk_metadata SET value = X'FF00FE' WHERE key = 'syncEnabled'",
              names: ["sk_metadata", "syncEnabled", "not UTF-8"], column: "sk_metadata.value", infoReads: true),
        .init(description: "a watermark, sk_peer.last_seq, that is text",
              sql: "INSERT INTO sk_peer (peer, is_local, first_seen, last_seq, exported_seq) VALUES ('p2', 0, 0, 'abc', 0)",
              names: ["sk_peer", "p2", "last_seq", "'abc'"], column: "sk_peer.last_seq", infoReads: true),
        .init(description: "sk_change.entity, a blob that is not UTF-8", sql: "UPDATE sk_change SET entity = X'53FF'",
              names: ["sk_change", "entity", "not UTF-8"], column: "sk_change.entity", infoReads: false),
        .init(description: "sk_change.entity, text that is not UTF-8", sql: "UPDATE sk_change SET entity = CAST(X'53FF' AS TEXT)",
              names: ["the history names entity"], column: "sk_change.entity", infoReads: false),
        .init(description: "sk_transaction.hlc, text", sql: "UPDATE sk_transaction SET hlc = 'late'",
              names: ["sk_transaction", "hlc", "'late'"], column: "sk_transaction.hlc", infoReads: false),
    ]

    /// A Speech Timer store with one record saved one by one, damaged by `sql`.
    static func damagedStore(in directory: TemporaryDirectory, _ sql: String) throws -> String {
        let path = directory.url.appendingPathComponent("d.store").path
        let model = try ModelLoader.load(path: ModelFiles.speechTimer, version: nil)
        let store = try SyncStore.create(at: path, model: model, contentName: "speeches", peerID: "local")
        try store.save(author: "test") { tx in _ = try tx.insert("SpeechType", values: ["name": .string("Toast")]) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        return path
    }

    @Test("info and sync exit 65 naming the damage, check reports it; nothing crashes", arguments: damages)
    func damagedTable(_ damage: Damage) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.damagedStore(in: directory, damage.sql)
        let container = directory.url.appendingPathComponent("container")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)

        let info = try StorekeepProcess.run(["info", store])
        if damage.infoReads {
            #expect(info.status == 65, "\(info)")
            for word in [store] + damage.names { #expect(info.stderr.contains(word), "\(word): \(info)") }
            #expect(info.stderr.contains("hint:"), "\(info)")
        } else {
            #expect(info.status == 0, "\(info)")
        }

        let sync = try StorekeepProcess.run(["sync", store, "--container", container.path])
        #expect(sync.status == 65, "\(sync)")
        for word in [store] + damage.names { #expect(sync.stderr.contains(word), "\(word): \(sync)") }
        #expect(!FileManager.default.fileExists(atPath: store + ".lock"), "sync left its lock behind")

        let check = try StorekeepProcess.run(["check", store, "--json"])
        #expect(check.status == 2, "\(check)")
        let stores = try check.jsonObject()["stores"] as? [[String: Any]] ?? []
        let findings = stores.first?["findings"] as? [[String: Any]] ?? []
        let damaged = findings.filter { $0["code"] as? String == "store.damagedValue" }
        #expect(damaged.contains { "\($0["table"] ?? "").\($0["column"] ?? "")" == damage.column }, "\(check)")
    }
}
