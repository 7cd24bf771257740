import Foundation
import GRDB
import Testing

/// The corpus Core Data stores, once migrated, checked through the built binary: every store can
/// be checked, and each finding is one the source itself explains.
@Suite("storekeep check: the corpus Core Data stores after migration")
struct CheckCorpusTests {
    @Test("migrated corpus stores check clean, except Photos' MomentLists that lack one of their two required to-manys in the source too",
          .enabled(if: ModelFiles.coreDataCorpusIsPresent, Comment(rawValue: CoreDataMigrationTests.corpusMessage)))
    func migratedCorpusStores() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sources = ModelFiles.coreDataCorpusStores()
        var targets: [String] = []
        for (index, source) in sources.enumerated() {
            let target = directory.url.appendingPathComponent("\(index).store").path
            let migrated = try StorekeepProcess.run(["migrate", source, "--to", target, "--quiet"], timeout: 300)
            #expect(migrated.status == 0, "\(source): \(migrated)")
            targets.append(target)
        }
        let result = try StorekeepProcess.run(["check"] + targets + ["--full", "--jobs", "2", "--json", "--max-findings", "0"], timeout: 300)
        let reports = try #require(try result.jsonObject()["stores"] as? [[String: Any]])
        #expect(reports.count == sources.count)
        for (source, report) in zip(sources, reports) {
            let findings = report["findings"] as? [[String: Any]] ?? []
            if source == CoreDataMigrationTests.photos {
                #expect(report["status"] as? String == "violations", "\(source): \(report)")
                let found = Set(findings.map { finding in
                    "\(finding["code"] as? String ?? "")|\(finding["property"] as? String ?? "")|\((finding["globalIDs"] as? [String])?.first?.split(separator: "/").last ?? "")"
                })
                #expect(found == (try photosMomentListsLackingMoments(source)), "\(report)")
            } else {
                #expect(report["status"] as? String == "ok", "\(source): \(findings)")
            }
        }
        #expect(result.status == (sources.contains(CoreDataMigrationTests.photos) ? 2 : 0), "\(result)")
    }

    /// Photos' model declares both `MomentList.momentsForMegaMoment` and `momentsForYear` required,
    /// yet a list holds moments through one of them only: read from a copy of the source with plain SQL.
    private func photosMomentListsLackingMoments(_ source: String) throws -> Set<String> {
        let facts = try CoreDataSourceFacts(path: source)
        return try facts.database.read { db in
            var expected = Set<String>()
            for (property, column) in [("momentsForMegaMoment", "ZMEGAMOMENTLIST"), ("momentsForYear", "ZYEARMOMENTLIST")] {
                let lists = try Int64.fetchAll(db, sql: """
                    SELECT Z_PK FROM ZMOMENTLIST WHERE Z_PK NOT IN (SELECT \(column) FROM ZMOMENT WHERE \(column) IS NOT NULL)
                    """)
                for pk in lists { expected.insert("record.requiredRelationship|\(property)|p\(pk)") }
            }
            return expected
        }
    }
}
