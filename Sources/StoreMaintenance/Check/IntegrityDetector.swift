import GRDB

/// SQLite's own check of the file: `PRAGMA quick_check` (quick) or `PRAGMA integrity_check` (full).
///
/// ``StoreChecker`` runs it on a connection of its own, beside the other detectors (it reads every
/// page once, on its own core); beside a running writer it may therefore see a later commit than
/// they do, which does not change what it checks: the file's structure.
enum IntegrityDetector {
    /// The lines SQLite reports (`ok` alone when it finds nothing).
    static func lines(in db: Database, depth: CheckDepth) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA \(pragma(depth))")
    }

    /// Adds one ``CheckCode/sqliteIntegrity`` finding per line SQLite reported other than `ok`.
    static func report(_ lines: [String], depth: CheckDepth, to context: CheckContext) {
        for line in lines where line != "ok" {
            context.add(.sqliteIntegrity) {
                CheckFinding(code: .sqliteIntegrity, message: "SQLite \(pragma(depth)): \(line)",
                             hint: "the file is damaged: stop writers, restore the store from a backup (copy the store with its -wal), or recover it with the sqlite3 `.recover` command into a new file")
            }
        }
    }

    private static func pragma(_ depth: CheckDepth) -> String { depth == .full ? "integrity_check" : "quick_check" }
}
