/// SQLite's own check of the file: `PRAGMA quick_check` (quick) or `PRAGMA integrity_check` (full),
/// which ``StoreChecker`` runs on a connection of its own, beside the other detectors
/// (``SyncStore/StoreInspector/integrityCheck(full:)``).
enum IntegrityDetector {
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
