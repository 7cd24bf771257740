import Foundation
import SyncStore

/// The migration history: runs that started and never finished, runs that failed, and applied
/// mapping or step files that changed (or went away) since (Flyway's `validate`).
enum MigrationDetector {
    /// Checks the migration history and the files it applied (a store without them has nothing to check).
    /// `lock` is the store lock's status: an unfinished run is not reported while a live process holds the lock.
    static func check(_ context: CheckContext, lock: StoreLock.Status) throws {
        guard let runs = try context.inspection.migrationRuns() else { return }
        let running: Bool
        if case .held = lock { running = true } else { running = false }
        for run in runs {
            let id = run.id
            let label = "migration run \(id) (\(run.description), from \(run.source ?? "?"))"
            if run.finished == nil {
                guard !running else { continue }
                context.add(.migrationUnfinished) {
                    let started = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: run.started ?? 0))
                    var finding = CheckFinding(
                        code: .migrationUnfinished,
                        message: "\(label) started at \(started) and never finished: the store holds only part of the source",
                        hint: "run the same `storekeep migrate` command again: it resumes from its last checkpoint")
                    finding.migration = id
                    return finding
                }
            } else if run.success == false {
                context.add(.migrationFailed) {
                    var finding = CheckFinding(
                        code: .migrationFailed, message: "\(label) finished without success: its verification failed",
                        hint: "the store is not trustworthy; migrate the source again into a new store")
                    finding.migration = id
                    return finding
                }
            }
        }
        guard let files = try context.inspection.migrationFiles() else { return }
        for file in files {
            let id = file.migration, path = file.path, expected = file.checksum
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
