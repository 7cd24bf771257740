/// Gathers the findings of one store, keeping at most a limit per code, entity and property and
/// counting the rest.
struct FindingCollector {
    private struct Rule: Hashable {
        var code: CheckCode
        var entity: String?
        var property: String?
    }

    /// The limit per rule (`nil`: no limit).
    let limit: Int?
    private(set) var findings: [CheckFinding] = []
    private var listed: [Rule: Int] = [:]
    private var left: [Rule: Int] = [:]

    /// Creates an empty collector.
    init(limit: Int?) {
        self.limit = limit
    }

    /// Adds the finding `make` builds, or only counts it when its rule has reached the limit
    /// (`make` is then not called: building messages for a million records costs time).
    mutating func add(_ code: CheckCode, entity: String? = nil, property: String? = nil, _ make: () -> CheckFinding) {
        let rule = Rule(code: code, entity: entity, property: property)
        if let limit, listed[rule, default: 0] >= limit {
            left[rule, default: 0] += 1
            return
        }
        listed[rule, default: 0] += 1
        findings.append(make())
    }

    /// Whether any finding of `code` was met (listed or counted).
    func contains(_ code: CheckCode) -> Bool {
        listed.keys.contains { $0.code == code } || left.keys.contains { $0.code == code }
    }

    /// The counts of findings left out, sorted.
    var omitted: [OmittedFindings] {
        left.map { OmittedFindings(code: $0.key.code, entity: $0.key.entity, property: $0.key.property, count: $0.value) }
            .sorted { ($0.code.rawValue, $0.entity ?? "", $0.property ?? "") < ($1.code.rawValue, $1.entity ?? "", $1.property ?? "") }
    }

    /// The findings in report order: by code, entity, property, then global IDs and other subjects.
    ///
    /// Each finding's key is built once (a repair sorts a million findings).
    var sortedFindings: [CheckFinding] {
        let keys = findings.map { finding in
            [finding.code.rawValue, finding.entity ?? "", finding.property ?? "", finding.globalIDs.first ?? "", finding.peer ?? "",
             finding.file ?? "", finding.target ?? "", finding.owner ?? "", finding.message]
        }
        return findings.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }.map { findings[$0] }
    }
}
