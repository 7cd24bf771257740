import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Per-record invariants: required values, ranges, patterns, storage classes, unknown entities.
@Suite("check: records")
struct CheckRecordTests {
    @Test("a clean store has no findings, quick and full, and is read as an immutable file")
    func cleanStore() throws {
        let shop = try CheckFixture()
        for depth in [CheckDepth.quick, .full] {
            let report = shop.check(depth)
            #expect(report.status == .ok, "\(report.findings.map(\.message))")
            #expect(report.findings.isEmpty)
            #expect(report.readMode == "immutable")
            #expect(report.modelVersion == "Shop 1")
        }
    }

    @Test("a required attribute left empty is reported with its record and property")
    func requiredAttribute() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET a_title = NULL WHERE _gid = ?", [shop["beta"]])
        let found = shop.findings(.recordRequiredAttribute)
        #expect(found.count == 1)
        #expect(found.first?.globalIDs == [shop["beta"]])
        #expect(found.first?.entity == "Product")
        #expect(found.first?.property == "title")
        #expect(found.first?.severity == .violation)
    }

    @Test("a required to-one left empty is reported")
    func requiredToOne() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET r_category = NULL WHERE _gid = ?", [shop["gamma"]])
        let found = shop.findings(.recordRequiredRelationship)
        #expect(found.map(\.globalIDs) == [[shop["gamma"]]])
        #expect(found.first?.entity == "Book", "the record's exact entity")
        #expect(found.first?.property == "category")
    }

    @Test("values outside min/max, string lengths over the maximum, integers outside their type, and sub-entity attributes")
    func ranges() throws {
        let shop = try CheckFixture()
        #expect(shop.findings(.recordValueOutOfRange).isEmpty)
        try shop.sql("UPDATE e_Product SET a_price = -1 WHERE _gid = ?", [shop["alpha"]])
        try shop.sql("UPDATE e_Product SET a_code = 'TOOLONG99', a_stock = 70000 WHERE _gid = ?", [shop["beta"]])
        try shop.sql("UPDATE e_Product SET a_pages = 0 WHERE _gid = ?", [shop["gamma"]])
        let found = shop.findings(.recordValueOutOfRange)
        let byProperty = Dictionary(grouping: found, by: { $0.property ?? "" })
        #expect(Set(byProperty.keys) == ["price", "code", "stock", "pages"])
        #expect(byProperty["price"]?.first?.minimum == "0")
        #expect(byProperty["price"]?.first?.value == "-1.0")
        #expect(byProperty["code"]?.first?.value == "9", "the length is reported for strings")
        #expect(byProperty["stock"]?.first?.maximum == "32767")
        #expect(byProperty["pages"]?.first?.globalIDs == [shop["gamma"]])
    }

    @Test("a string that does not match the whole regular expression is reported")
    func pattern() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET a_title = 'lower' WHERE _gid = ?", [shop["alpha"]])
        try shop.sql("UPDATE e_Product SET a_title = 'BetaX' WHERE _gid = ?", [shop["beta"]])
        let found = shop.findings(.recordPatternMismatch)
        #expect(Set(found.flatMap(\.globalIDs)) == [shop["alpha"], shop["beta"]], "a partial match is a mismatch")
        #expect(found.first?.pattern == "[A-Z][a-z]*")
    }

    @Test("a value of a storage class its type never uses, and a record of an unknown entity")
    func wrongTypeAndUnknownEntity() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET a_price = 'cheap' WHERE _gid = ?", [shop["alpha"]])
        try shop.sql("UPDATE e_Tag SET _entity = 'Ghost' WHERE _gid = ?", [shop["tag"]])
        let report = shop.check()
        #expect(report.findings.filter { $0.code == .recordWrongType }.map(\.globalIDs) == [[shop["alpha"]]])
        let unknown = report.findings.filter { $0.code == .recordUnknownEntity }
        #expect(unknown.map(\.globalIDs) == [[shop["tag"]]])
        #expect(unknown.first?.value == "Ghost")
    }

    @Test("the finding limit lists the first findings of a rule and counts the rest")
    func limit() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET a_title = NULL")
        let report = StoreChecker(options: CheckOptions(findingLimit: 1)).check(storeAt: shop.path)
        let listed = report.findings.filter { $0.code == .recordRequiredAttribute }
        #expect(listed.count == 2, "one per exact entity: Product and Book")
        #expect(report.omitted == [OmittedFindings(code: .recordRequiredAttribute, entity: "Product", property: "title", count: 1)])
        #expect(report.status == .violations)
    }
}
