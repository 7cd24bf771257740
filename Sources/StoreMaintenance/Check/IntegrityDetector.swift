import GRDB

/// SQLite's own check of the file: `PRAGMA quick_check` (quick) or `PRAGMA integrity_check` (full).
enum IntegrityDetector {
    /// Adds one ``CheckCode/sqliteIntegrity`` finding per line SQLite reports (none when it says `ok`).
    static func check(_ context: CheckContext) throws {
        let pragma = context.options.depth == .full ? "integrity_check" : "quick_check"
        let lines = try String.fetchAll(context.db, sql: "PRAGMA \(pragma)")
        for line in lines where line != "ok" {
            context.add(.sqliteIntegrity) {
                CheckFinding(code: .sqliteIntegrity, message: "SQLite \(pragma): \(line)",
                             hint: "the file is damaged: stop writers, restore the store from a backup (copy the store with its -wal), or recover it with the sqlite3 `.recover` command into a new file")
            }
        }
    }
}
