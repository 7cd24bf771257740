import Foundation
import ObjectModel
import SyncStore

/// The report file of rejected records beside the target: `<target>.rejected.jsonl`, one JSON object a line.
enum RejectionReport {
    /// The report's path for a target.
    static func path(for target: String) -> String { target + ".rejected.jsonl" }

    /// Writes the report durably (``DurableFile``: temporary file, fsynced, renamed into place, the
    /// folder fsynced), before the run reports success.
    static func write(_ rejections: [MigrationRejection], for target: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = Data()
        for rejection in rejections {
            text.append(try encoder.encode(rejection))
            text.append(0x0a)
        }
        let destination = path(for: target)
        do {
            try DurableFile.write(text, to: destination)
        } catch let failure as DurableFile.Failure {
            throw MaintenanceError(path: destination, problem: "cannot write the report of rejected records: \(failure.reason)",
                                   hint: failure.isDiskFull ? "free some space, then run the migration again" : "check the permissions of the target's folder",
                                   failureKind: .cannotCreateOutput)
        }
    }
}
