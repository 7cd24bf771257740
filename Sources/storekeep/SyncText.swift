import StoreMaintenance

/// The human-readable output of `storekeep sync`.
enum SyncText {
    /// What was exported and imported, the fixes, and every finding with its hint.
    static func render(_ report: SyncReport, switched: Bool) -> String {
        var lines: [String] = []
        let namespace = "\(report.contentName)/\(report.modelHash.prefix(12))"
        if switched {
            lines.append("\(report.store): sync switched \(report.syncEnabled ? "on" : "off") (peer \(report.peer), \(namespace))")
        } else if report.syncEnabled {
            let dry = report.dryRun ? " (dry run: nothing changed)" : ""
            lines.append("\(report.store): peer \(report.peer) in \(namespace)\(dry)")
            lines.append("exported: \(report.exportedTransactions) transaction(s), \(report.exportedChanges) change(s) in \(report.logsWritten.count) log file(s)")
            if report.importedTransactions.isEmpty {
                lines.append("imported: nothing new")
            } else {
                for (peer, count) in report.importedTransactions.sorted(by: { $0.key < $1.key }) {
                    lines.append("imported from \(peer): \(count) transaction(s), \(report.importedChanges[peer] ?? 0) change(s)")
                }
            }
            if report.conflictsWon + report.conflictsLost > 0 {
                lines.append("conflicts: \(report.conflictsWon) value(s) replaced by a later change from another peer, \(report.conflictsLost) imported value(s) older than this store's")
            }
            if report.changesToDeletedRecords > 0 { lines.append("\(report.changesToDeletedRecords) imported change(s) to deleted records (a delete wins)") }
            for skipped in report.skippedChanges.prefix(20) { lines.append("skipped: \(skipped)") }
            if !report.fixes.isEmpty {
                lines.append("fixed after the import (one transaction by storekeep.import):")
                for fix in report.fixes { lines.append("  \(fix)") }
            }
        } else {
            lines.append("\(report.store): sync is switched off; nothing exported or imported")
        }
        for finding in report.findings where finding.code != "sync.disabled" || !switched {
            let place = finding.file.map { "\($0): " } ?? ""
            lines.append("\(finding.severity): \(finding.code): \(place)\(finding.message)")
            if let hint = finding.hint { lines.append("  hint: \(hint)") }
        }
        return lines.joined(separator: "\n")
    }
}
