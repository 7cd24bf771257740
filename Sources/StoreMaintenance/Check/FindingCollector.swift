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

    /// Puts the findings in report order: by code, entity, property, then global IDs and other subjects.
    ///
    /// Each finding's key is built once, and the findings are moved in place (a repair sorts a
    /// million findings: a sorted copy beside them would double the memory they take).
    mutating func sortForReport() {
        let order: [Int]
        do {
            let keys = findings.map(SortKey.init)
            order = findings.indices.sorted { keys[$0] < keys[$1] }
        }
        // Position i receives the finding at order[i]: follow each cycle of the permutation once.
        var placed = [Bool](repeating: false, count: findings.count)
        for start in findings.indices where !placed[start] {
            let first = findings[start]
            var position = start
            while true {
                placed[position] = true
                let source = order[position]
                if source == start {
                    findings[position] = first
                    break
                }
                findings[position] = findings[source]
                position = source
            }
        }
    }

    /// What findings are sorted by, built once per finding (no allocation: the texts are shared with the finding).
    private struct SortKey: Comparable {
        let code: String, entity: String, property: String, globalID: String, peer: String, file: String, target: String
        let owner: String, message: String

        init(_ finding: CheckFinding) {
            code = finding.code.rawValue
            entity = finding.entity ?? ""
            property = finding.property ?? ""
            globalID = finding.globalIDs.first ?? ""
            peer = finding.peer ?? ""
            file = finding.file ?? ""
            target = finding.target ?? ""
            owner = finding.owner ?? ""
            message = finding.message
        }

        static func < (a: SortKey, b: SortKey) -> Bool {
            if a.code != b.code { return a.code < b.code }
            if a.entity != b.entity { return a.entity < b.entity }
            if a.property != b.property { return a.property < b.property }
            if a.globalID != b.globalID { return a.globalID < b.globalID }
            if a.peer != b.peer { return a.peer < b.peer }
            if a.file != b.file { return a.file < b.file }
            if a.target != b.target { return a.target < b.target }
            if a.owner != b.owner { return a.owner < b.owner }
            return a.message < b.message
        }
    }
}
