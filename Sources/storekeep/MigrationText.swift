import Foundation
import StoreMaintenance

/// Human renderings of a migration's plan and report.
enum MigrationText {
    /// The `--dry-run` plan.
    static func plan(_ plan: MigrationPlan) -> String {
        var lines = ["plan (nothing written)",
                     "source  \(plan.source) (\(plan.sourceKind))",
                     "target  \(plan.target)",
                     "model   \(plan.model) (hash \(plan.modelHash.prefix(12)))",
                     "mode    \(plan.mode)"]
        if let note = plan.modelNote { lines.append("note    \(note)") }
        if !plan.droppedData.isEmpty { lines.append("drops   " + plan.droppedData.map(\.words).joined(separator: ", ")) }
        lines.append("")
        var table = TextTable(columns: [.init("stream"), .init("entity"), .init("estimated rows", alignment: .right), .init("already written", alignment: .right)])
        for stream in plan.streams {
            table.append([stream.stream, stream.entity, stream.estimatedRows.map(String.init) ?? "?", String(stream.alreadyWritten)])
        }
        lines.append(table.render())
        lines.append("")
        lines += plan.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }
        return lines.joined(separator: "\n")
    }

    /// Writes one warning line on stderr naming the stored data the migration does not carry over,
    /// under `--json` too (the document's `droppedData` lists it); nothing when it drops nothing.
    static func warnAboutDroppedData(_ dropped: [DroppedData]) {
        guard !dropped.isEmpty else { return }
        let steps = Array(Set(dropped.map(\.step))).sorted().joined(separator: ", ")
        StandardStream.error.write("storekeep: warning: the target version has no place for "
            + dropped.map(\.words).joined(separator: ", ")
            + "; they are not carried over (Core Data's own migration drops them too). To keep them, write a step file for "
            + "\(steps) (docs/steps.md); --refuse-dropped-data stops instead")
    }

    /// The end-of-run report: a table per entity.
    static func report(_ report: MigrationReport) -> String {
        var lines: [String] = []
        switch report.outcome {
        case .completed: lines.append("migrated \(report.source) → \(report.target)\(report.resumed ? " (resumed)" : "")")
        case .alreadyCompleted: lines.append("already migrated: \(report.source) → \(report.target) finished earlier; nothing changed")
        case .stoppedAtRejectedRecord: lines.append("stopped: \(report.stoppedAt ?? "a record cannot be written")")
        }
        if let note = report.modelNote { lines.append(note) }
        if !report.droppedData.isEmpty { lines.append("dropped (not carried over): " + report.droppedData.map(\.words).joined(separator: ", ")) }
        if let stale = report.tookOverStaleLock {
            lines.append("took over the lock left by \(stale.command) (pid \(stale.pid), no longer running, since \(stale.started))")
        }
        var table = TextTable(columns: [.init("entity"), .init("read", alignment: .right), .init("written", alignment: .right),
                                        .init("rejected", alignment: .right), .init("seconds", alignment: .right)])
        for stream in report.streams {
            table.append([stream.entity, String(stream.read), String(stream.written), String(stream.rejected), String(format: "%.2f", stream.seconds)])
        }
        lines.append(table.render())
        if report.outcome == .completed { lines.append("verified: counts and content digest of what was read match the store") }
        if let digest = report.digest { lines.append("digest: \(digest)") }
        if let rejected = report.rejectedReport { lines.append("rejected records: \(rejected)") }
        return lines.joined(separator: "\n")
    }
}
