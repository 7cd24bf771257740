import Foundation
import GRDB

/// The migration history: runs that started and never finished, runs that failed, and applied
/// mapping or step files that changed (or went away) since (Flyway's `validate`).
enum MigrationDetector {
    /// Checks `sk_migration` and `sk_migration_file` (a store without them has nothing to check).
    /// `lock` is the store lock's status: an unfinished run is not reported while a live process holds the lock.
    static func check(_ context: CheckContext, lock: StoreLock.Status) throws {
        let db = context.db
        guard try db.tableExists("sk_migration") else { return }
        let running: Bool
        if case .held = lock { running = true } else { running = false }
        for row in try Row.fetchAll(db, sql: "SELECT id, version, description, source, started, finished, success FROM sk_migration ORDER BY id") {
            let id: Int64 = row.stored("id", as: Int64.self) ?? 0
            let label = "migration run \(id) (\(row.stored("description", as: String.self) ?? ""), from \(row.stored("source", as: String.self) ?? "?"))"
            if row.stored("finished", as: Double.self) == nil {
                guard !running else { continue }
                context.add(.migrationUnfinished) {
                    let started = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: row.stored("started", as: Double.self) ?? 0))
                    var finding = CheckFinding(
                        code: .migrationUnfinished,
                        message: "\(label) started at \(started) and never finished: the store holds only part of the source",
                        hint: "run the same `storekeep migrate` command again: it resumes from its last checkpoint")
                    finding.migration = id
                    return finding
                }
            } else if row.stored("success", as: Int.self) == 0 {
                context.add(.migrationFailed) {
                    var finding = CheckFinding(
                        code: .migrationFailed, message: "\(label) finished without success: its verification failed",
                        hint: "the store is not trustworthy; migrate the source again into a new store")
                    finding.migration = id
                    return finding
                }
            }
        }
        guard try db.tableExists("sk_migration_file") else { return }
        for row in try Row.fetchAll(db, sql: "SELECT migration, path, checksum FROM sk_migration_file ORDER BY migration, path") {
            let id: Int64 = row.stored("migration", as: Int64.self) ?? 0, path: String = row.stored("path", as: String.self) ?? "", expected: String = row.stored("checksum", as: String.self) ?? ""
            guard FileManager.default.fileExists(atPath: path) else {
                context.add(.migrationFileMissing, property: path) {
                    var finding = CheckFinding(
                        code: .migrationFileMissing, message: "\(path), applied by migration run \(id), is no longer there",
                        hint: "keep applied mapping and step files where they were (like Flyway's migrations), or restore it from version control")
                    finding.migration = id
                    finding.file = path
                    finding.expectedHash = expected
                    return finding
                }
                continue
            }
            guard let actual = BlobDetector.hashFile(atPath: path), actual != expected else { continue }
            context.add(.migrationFileChanged, property: path) {
                var finding = CheckFinding(
                    code: .migrationFileChanged,
                    message: "\(path) has changed since migration run \(id) applied it (checksum \(expected.prefix(12)) then, \(actual.prefix(12)) now)",
                    hint: "an applied mapping or step file must not change: restore the applied version, and put new changes in a new step file")
                finding.migration = id
                finding.file = path
                finding.expectedHash = expected
                finding.actualHash = actual
                return finding
            }
        }
    }
}
