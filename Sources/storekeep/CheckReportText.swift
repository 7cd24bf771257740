import StoreMaintenance

/// The human form of a ``CheckDocument``: per store a status line and a short table of findings,
/// then one summary line.
struct CheckReportText {
    /// The document to render.
    let document: CheckDocument

    /// The text.
    func render() -> String {
        var blocks: [String] = []
        for report in document.stores {
            var lines = ["\(report.path): \(headline(report))"]
            if let error = report.error {
                lines.append("  \(error.message)")
                if let hint = error.hint { lines.append("  hint: \(hint)") }
            }
            if !report.findings.isEmpty {
                var table = TextTable(columns: [.init("severity"), .init("code"), .init("entity"), .init("message")])
                for finding in report.findings {
                    table.append([finding.severity.rawValue, finding.code.rawValue, finding.entity ?? "-", finding.message])
                }
                lines.append(table.render())
                lines.append(contentsOf: hints(report.findings))
            }
            for omitted in report.omitted {
                let subject = [omitted.entity, omitted.property].compactMap { $0 }.joined(separator: ".")
                lines.append("… and \(omitted.count) more \(omitted.code.rawValue)\(subject.isEmpty ? "" : " of \(subject)") (--max-findings 0 lists all)")
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        let summary = document.summary
        let counts = CheckStatus.allCases.map { "\(summary.statuses[$0.rawValue] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        blocks.append("\(summary.stores) store\(summary.stores == 1 ? "" : "s") checked (\(summary.depth.rawValue)): \(counts); exit \(summary.exitCode)")
        return blocks.joined(separator: "\n\n")
    }

    /// Each distinct hint once, with its code, in the order findings list them.
    private func hints(_ findings: [CheckFinding]) -> [String] {
        var seen = Set<String>()
        return findings.compactMap { finding in
            guard !finding.hint.isEmpty, seen.insert("\(finding.code.rawValue) \(finding.hint)").inserted else { return nil }
            return "hint (\(finding.code.rawValue)): \(finding.hint)"
        }
    }

    private func headline(_ report: StoreCheckReport) -> String {
        switch report.status {
        case .ok: return "ok"
        case .failed: return "could not check"
        case .warnings, .violations:
            let violations = report.count(of: .violation), warnings = report.count(of: .warning)
            return "\(report.status.rawValue) (\(violations) violation\(violations == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"))"
        }
    }
}
