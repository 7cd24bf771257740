import Foundation
import SyncStore

/// The report file of rejected records beside the target: `<target>.rejected.jsonl`, one JSON object a line.
enum RejectionReport {
    /// The report's path for a target.
    static func path(for target: String) -> String { target + ".rejected.jsonl" }

    /// Writes the report (temporary file, then renamed into place).
    static func write(_ rejections: [MigrationRejection], for target: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = Data()
        for rejection in rejections {
            text.append(try encoder.encode(rejection))
            text.append(0x0a)
        }
        let destination = URL(fileURLWithPath: path(for: target))
        do {
            try text.write(to: destination, options: .atomic)
        } catch {
            throw MaintenanceError(path: destination.path, problem: "cannot write the report of rejected records: \(error.localizedDescription)",
                                   failureKind: .cannotCreateOutput)
        }
    }
}
