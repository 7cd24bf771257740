import StoreMaintenance

/// The human-readable output of `storekeep repair`.
enum RepairText {
    /// The plan, then what was done and what is left.
    static func render(_ report: RepairReport) -> String {
        var lines: [String] = []
        let plan = report.plan
        if plan.fixes.isEmpty {
            lines.append("\(report.path): nothing to repair")
        } else {
            lines.append("\(report.path): \(plan.fixes.count) fix\(plan.fixes.count == 1 ? "" : "es")\(report.dryRun ? " planned (dry run: nothing changed)" : "")")
            var table = TextTable(columns: [.init("#", alignment: .right), .init("code"), .init("action"), .init("what")])
            for (index, fix) in plan.fixes.enumerated() {
                table.append([String(index + 1), fix.code.rawValue, fix.action.rawValue, fix.description])
            }
            lines.append(table.render())
        }
        if let backup = report.backup { lines.append("backup: \(backup)") }
        for entry in report.backupLeftOut { lines.append("left out of the backup: \(entry)") }
        if report.applied && !plan.fixes.isEmpty {
            let count = plan.fixes.count
            let all = report.fixesApplied == count ? (count == 1 ? "the fix" : count == 2 ? "both fixes" : "all \(count) fixes")
                : "\(report.fixesApplied) of \(count) fixes"
            let saved = plan.fixes.contains { ![.removeOrphanedFile, .takeOverStaleLock].contains($0.action) }
                ? " (the database changes as one history transaction by storekeep.repair)" : ""
            lines.append("applied \(all)\(saved)")
        }
        for note in report.skipped { lines.append("not done: \(note)") }
        for file in report.recentFilesKept {
            lines.append("kept: \(file) changed within the grace period; a writer may be about to use it (a later repair removes it if it is still orphaned)")
        }
        if !plan.leftovers.isEmpty {
            lines.append("")
            lines.append("left for you (\(plan.leftovers.count)):")
            for leftover in plan.leftovers {
                let who = ([leftover.entity].compactMap { $0 } + leftover.globalIDs.prefix(3)).joined(separator: " ")
                lines.append("  \(leftover.code.rawValue)\(who.isEmpty ? "" : " \(who)"): \(leftover.reason)")
                lines.append("    hint: \(leftover.hint)")
            }
        }
        if plan.ignored > 0 { lines.append("\(plan.ignored) finding(s) of other codes not considered (--only)") }
        if report.applied && !report.remaining.isEmpty {
            lines.append("still reported by check after the repair: \(report.remaining.count) finding(s); run `storekeep check \(report.path)`")
        }
        return lines.joined(separator: "\n")
    }
}
