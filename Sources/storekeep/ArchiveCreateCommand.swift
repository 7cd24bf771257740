import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep archive [create] STORE --container DIR`: archives what every registered peer has imported.
struct ArchiveCreateCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Move the logs every registered peer has imported into a tar archive compressed with zstd, and their history out of the store.",
        discussion: """
            Computes the all-peer watermark from the peers' manifests, writes a baseline beside the logs that stay, \
            writes the covered logs (and the baselines a rekey left) into <namespace>/archives (or --to) with a \
            manifest of SHA-256 sums, reads the archive back, and only then removes the logs from the container and their \
            history from the store. Nothing a registered peer has not imported, and nothing this peer has not \
            exported, leaves. See docs/container.md and docs/operators.md.
            """)

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The container folder.
    @Option(help: "The shared container folder.", completion: .directory)
    var container: String

    /// Only logs older than this.
    @Option(help: "Archive only logs last written longer ago than this (90s, 15m, 12h, 30d, 2w).")
    var olderThan: String?

    /// Report peers silent longer than this.
    @Option(help: "Report peers that have not synced for longer than this (they still hold archiving back until `storekeep peers forget`).")
    var forgetAfter: String?

    /// Where the archive goes.
    @Option(name: .customLong("to"), help: "The folder the archive goes to (default: <container>/<content name>/<model hash>/archives).", completion: .directory)
    var destination: String?

    /// Say what would happen, change nothing.
    @Flag(help: "Say what would be archived; write nothing.")
    var dryRun = false

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects durations that cannot be read.
    func validate() throws {
        for (name, value) in [("--older-than", olderThan), ("--forget-after", forgetAfter)] {
            if let value, DurationText.seconds(value) == nil {
                throw ValidationError("\(name): '\(value)' is not a duration; write a number and a unit: 90s, 15m, 12h, 30d, 2w.")
            }
        }
    }

    /// Archives and says what left.
    func run(context: CommandContext) throws {
        let options = ArchiveOptions(dryRun: dryRun, olderThan: olderThan.flatMap(DurationText.seconds),
                                     forgetAfter: forgetAfter.flatMap(DurationText.seconds), destination: destination)
        let report = try StoreArchiver(path: store, container: container, options: options).run()
        try context.output.emit(report) {
            var lines = ["\(store): \(report.contentName)/\(report.modelHash.prefix(12))\(report.dryRun ? " (dry run: nothing written)" : "")"]
            lines.append("registered peers: \(report.registeredPeers.joined(separator: ", "))"
                         + (report.forgottenPeers.isEmpty ? "" : "; forgotten: \(report.forgottenPeers.joined(separator: ", "))"))
            lines.append("all-peer watermark: " + report.watermark.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            if report.archivedLogs > 0 {
                lines.append("\(report.dryRun ? "would archive" : "archived") \(report.archivedLogs) log(s), \(report.archivedBytes) bytes\(report.archive.map { " into \($0)" } ?? "")")
                if report.verified { lines.append("verified: every entry's checksum matches; \(report.removedLogs) log(s) removed from the container") }
                if let baseline = report.baseline { lines.append("baseline for new peers: \(baseline)") }
                if report.prunedTransactions + report.prunedChanges > 0 {
                    lines.append("history removed from the store: \(report.prunedTransactions) transaction(s), \(report.prunedChanges) change(s)")
                }
            }
            for removed in report.removedBaselines { lines.append("earlier baseline removed (the newest holds all it held): \(removed)") }
            for silent in report.silentPeers {
                lines.append("warning: peer \(silent.peer) has not synced for \(Int(silent.days)) days; it holds archiving back until it syncs or `storekeep peers forget` forgets it")
            }
            for note in report.notes { lines.append(note) }
            return lines.joined(separator: "\n")
        }
    }
}
