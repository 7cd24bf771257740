import Foundation
import GRDB
import Testing

/// `sync` of a store whose own logs go past what it recorded as exported (a run killed between
/// publishing and recording, or a store restored from a backup) compares the logs with its history
/// (`SyncSession.firstDivergence`). A history row written around storekeep must end in exit 65
/// naming the table, row and column, not a crash (exit 132) in GRDB's typed subscripts. The built
/// binary, real stores.
@Suite("sync: damaged history rows where published logs are compared with the store")
struct SyncDivergenceDamageTests {
    @Test("exit 65 naming the damaged value, no crash, no lock left behind",
          arguments: [
            ("UPDATE sk_transaction SET hlc = 'late'", ["sk_transaction", "hlc", "'late'"]),
            ("UPDATE sk_transaction SET timestamp = 'noon'", ["sk_transaction", "timestamp", "'noon'"]),
            ("UPDATE sk_transaction SET author = X'FF00'", ["sk_transaction", "author", "not UTF-8"]),
          ])
    func damagedStamps(_ damage: (sql: String, words: [String])) throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let container = try w.container()
        let (store, _) = try w.publishedLog(in: container)
        // As if the run that published the log was killed before it recorded it: the next sync
        // compares that log with the store's history.
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: "UPDATE sk_peer SET exported_seq = 0 WHERE is_local = 1")
            try db.execute(sql: damage.sql)
        }
        try queue.close()

        let sync = try StorekeepProcess.run(["sync", store, "--container", container])
        #expect(sync.status == 65, "\(sync)")
        for word in [store, "numbered 1"] + damage.words { #expect(sync.stderr.contains(word), "\(word): \(sync)") }
        #expect(sync.stderr.contains("hint:"), "\(sync)")
        #expect(!FileManager.default.fileExists(atPath: store + ".lock"), "sync left its lock behind")
    }
}
