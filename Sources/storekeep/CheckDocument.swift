import StoreMaintenance

/// The JSON document of `storekeep check`: `{"stores": [...], "summary": {...}}`. Fields are only ever added.
struct CheckDocument: Encodable {
    /// Counts over every store checked.
    struct Summary: Encodable {
        /// Stores given.
        var stores: Int
        /// Stores per status (`ok`, `warnings`, `violations`, `failed`), every status present.
        var statuses: [String: Int]
        /// Findings per severity over every store, omitted ones included.
        var findings: [String: Int]
        /// The worst status.
        var status: CheckStatus
        /// The process exit status: 0, 1, 2 or 3.
        var exitCode: Int32
        /// `quick` or `full`.
        var depth: CheckDepth
    }

    /// One report per store, in the order given.
    var stores: [StoreCheckReport]
    /// The counts.
    var summary: Summary

    /// Builds the document.
    init(depth: CheckDepth, reports: [StoreCheckReport]) {
        stores = reports
        let worst = reports.map(\.status).max() ?? .ok
        var statuses = Dictionary(uniqueKeysWithValues: CheckStatus.allCases.map { ($0.rawValue, 0) })
        for report in reports { statuses[report.status.rawValue, default: 0] += 1 }
        let findings = Dictionary(uniqueKeysWithValues: CheckSeverity.allCases.map { severity in
            (severity.rawValue, reports.reduce(0) { $0 + $1.count(of: severity) })
        })
        summary = Summary(stores: reports.count, statuses: statuses, findings: findings, status: worst, exitCode: worst.exitCode, depth: depth)
    }
}
