import Foundation
import SyncStore
import Testing

/// A store whose writer was killed part-way through a commit made through a rollback journal (a
/// migration loads a new store that way): commands that only read it say so and what to do,
/// instead of calling it damaged; the next writer rolls the commit back and all is as before.
@Suite("a store left with a commit to roll back")
struct KilledCommitTests {
    /// Opens `store` with Python's `sqlite3`, starts a transaction that spills pages into the file
    /// (a tiny cache), and kills itself with SIGKILL: a real hot journal, as SQLite leaves one.
    private func killMidCommit(_ store: String) throws {
        let script = """
            import os, signal, sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            assert connection.execute('PRAGMA journal_mode = TRUNCATE').fetchone()[0] == 'truncate'
            connection.execute('PRAGMA cache_size = 4')
            connection.execute('BEGIN')
            connection.execute('UPDATE sk_metadata SET value = value')
            connection.execute('CREATE TABLE filler (x)')
            for _ in range(5000):
                connection.execute('INSERT INTO filler VALUES (?)', ('y' * 200,))
            os.kill(os.getpid(), signal.SIGKILL)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, store]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "the writer was killed")
    }

    @Test("info and check explain the journal and exit 75; after a writer opens it the store checks clean")
    func readersExplainTheJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("s.store").path
        #expect(try StorekeepProcess.run(["init", store, "--model", ModelFiles.speechTimer, "--content-name", "ST"]).status == 0)
        try killMidCommit(store)
        let journal = try FileManager.default.attributesOfItem(atPath: store + "-journal")[.size] as? NSNumber
        #expect((journal?.intValue ?? 0) > 0, "the killed writer left its journal")

        let info = try StorekeepProcess.run(["info", store])
        #expect(info.status == 75, "\(info)")
        #expect(info.stderr.contains("killed part-way through a commit"), "\(info.stderr)")
        #expect(info.stderr.contains("do not delete the -journal file"), "\(info.stderr)")

        let check = try StorekeepProcess.run(["check", store, "--json"])
        #expect(check.stdout.contains("killed part-way through a commit"), "\(check)")
        #expect(!check.stdout.contains("damaged"), "a commit to roll back is not damage: \(check)")

        // Any writer rolls the commit back (SQLite does it on the first read).
        _ = try SyncStore.open(at: store).liveRecordCounts()
        let after = try StorekeepProcess.run(["check", store, "--full"])
        #expect(after.status == 0, "\(after)")
        #expect(try SyncStore.open(at: store, readOnly: true).liveRecordCounts().values.reduce(0, +) == 0)
    }
}
