import Testing
@testable import StoreMaintenance

/// `check` lists findings by code, entity, property, then global ID and the other subjects,
/// whatever order the detectors met them in (they are sorted in place: a repair sorts a million).
@Suite struct FindingOrderTests {
    @Test(arguments: [0, 1, 2, 7, 500]) func findingsAreSortedInReportOrder(count: Int) {
        var collector = FindingCollector(limit: nil)
        var generator = SystemRandomNumberGenerator()
        let codes: [CheckCode] = [.seedDuplicate, .relationshipDanglingTarget, .blobOrphaned, .recordRequiredAttribute]
        for index in 0..<count {
            let code = codes[Int.random(in: 0..<codes.count, using: &generator)]
            let entity = ["Speech", "SpeechType", "Settings"][Int.random(in: 0..<3, using: &generator)]
            collector.add(code, entity: entity) {
                var finding = CheckFinding(code: code, entity: entity, globalIDs: ["G-\(Int.random(in: 0..<50, using: &generator))"],
                                           message: "finding \(index)", hint: "-")
                finding.property = ["a", "b", nil][Int.random(in: 0..<3, using: &generator)]
                return finding
            }
        }
        let expected = collector.findings.sorted {
            ($0.code.rawValue, $0.entity ?? "", $0.property ?? "", $0.globalIDs.first ?? "", $0.message)
                < ($1.code.rawValue, $1.entity ?? "", $1.property ?? "", $1.globalIDs.first ?? "", $1.message)
        }
        collector.sortForReport()
        #expect(collector.findings.map(\.message) == expected.map(\.message))
    }
}
