import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// Relationship invariants: dangling and wrong-entity targets, join rows, one-to-one pairs, to-many counts.
@Suite("check: relationships")
struct CheckRelationshipTests {
    @Test("a to-one pointing at no record, or at a record of another table")
    func danglingToOne() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET r_category = 'NOPE' WHERE _gid = ?", [shop["alpha"]])
        try shop.sql("UPDATE e_Product SET r_category = ? WHERE _gid = ?", [shop["tag"], shop["beta"]])
        let report = shop.check()
        let dangling = report.findings.filter { $0.code == .relationshipDanglingTarget }
        #expect(Set(dangling.flatMap(\.globalIDs)) == [shop["alpha"], shop["beta"]])
        #expect(dangling.first { $0.globalIDs == [shop["alpha"]] }?.target == "NOPE")
        #expect(dangling.allSatisfy { $0.property == "category" })
        #expect(dangling.allSatisfy { $0.column == "r_category" && $0.table == "e_Product" })
        let wrong = report.findings.filter { $0.code == .relationshipWrongTargetEntity }
        #expect(wrong.isEmpty, "a Tag lives in another table: it is not found among categories, so it dangles")
    }

    @Test("a to-one pointing at a record of the right table but of an entity outside the destination's family")
    func wrongEntityInSameTable() throws {
        let shop = try CheckFixture()
        // Gamma is a Book; relabel it to an entity of the Product table that is not a Product-kind destination
        // by pointing Passport.product (destination Product) at a row whose _entity is not in Product's family.
        try shop.sql("UPDATE e_Product SET _entity = 'Ghost' WHERE _gid = ?", [shop["gamma"]])
        try shop.sql("UPDATE e_Passport SET r_product = ?", [shop["gamma"]])
        let wrong = shop.findings(.relationshipWrongTargetEntity)
        #expect(wrong.map(\.globalIDs) == [[shop["passport"]]])
        #expect(wrong.first?.targetEntity == "Ghost")
        #expect(wrong.first?.target == shop["gamma"])
    }

    @Test("join rows whose target or owner does not exist")
    func danglingJoinRows() throws {
        let shop = try CheckFixture()
        #expect(shop.findings(.relationshipDanglingJoinRow).isEmpty)
        try shop.sql("INSERT INTO j_Product_tags (owner, target) VALUES (?, 'NOTAG')", [shop["beta"]])
        try shop.sql("INSERT INTO j_Product_tags (owner, target) VALUES ('NOPRODUCT', ?)", [shop["tag"]])
        try shop.sql("INSERT INTO j_Product_tags (owner, target) VALUES (?, ?)", [shop["passport"], shop["tag"]])
        let found = shop.findings(.relationshipDanglingJoinRow)
        #expect(found.count == 3)
        let target = found.first { $0.column == "target" }
        #expect(target?.owner == shop["beta"])
        #expect(target?.target == "NOTAG")
        #expect(target?.table == "j_Product_tags")
        #expect(target?.property == "tags")
        #expect(target?.globalIDs == [shop["beta"]])
        #expect(Set(found.filter { $0.column == "owner" }.compactMap(\.owner)) == ["NOPRODUCT", shop["passport"]])
    }

    @Test("two records claiming one partner of a one-to-one relationship, and the two sides disagreeing")
    func oneToOne() throws {
        let shop = try CheckFixture()
        try shop.sql("UPDATE e_Product SET r_passport = ? WHERE _gid = ?", [shop["passport"], shop["beta"]])
        let report = shop.check()
        let shared = report.findings.filter { $0.code == .relationshipSharedTarget }
        #expect(shared.count == 1, "one finding per group")
        #expect(shared.first?.globalIDs == [shop["alpha"], shop["beta"]].sorted())
        #expect(shared.first?.target == shop["passport"])
        #expect(shared.first?.records?.count == 2)
        let mismatch = report.findings.filter { $0.code == .relationshipInverseMismatch }
        #expect(mismatch.map(\.globalIDs) == [[shop["beta"]]])
        #expect(mismatch.first?.inverseTarget == shop["alpha"])
        #expect(mismatch.first?.inverseProperty == "product")

        let other = try CheckFixture()
        try other.sql("UPDATE e_Passport SET r_product = NULL")
        let lonely = other.findings(.relationshipInverseMismatch)
        #expect(lonely.map(\.globalIDs) == [[other["alpha"]]])
        #expect(lonely.first?.inverseTarget == nil)
        #expect(other.findings(.relationshipSharedTarget).isEmpty)
    }

    @Test("a required to-many below its minimum, empty, or above its maximum")
    func toManyCounts() throws {
        let shop = try CheckFixture()
        try shop.sql("DELETE FROM j_Bundle_items WHERE target = ?", [shop["beta"]])
        var found = shop.findings(.recordRelationshipCount)
        #expect(found.map(\.globalIDs) == [[shop["bundle"]]])
        #expect(found.first?.count == 1)
        #expect(found.first?.minimum == "2")
        #expect(found.first?.maximum == "3")
        try shop.sql("DELETE FROM j_Bundle_items")
        let report = shop.check()
        #expect(report.findings.filter { $0.code == .recordRelationshipCount }.isEmpty)
        #expect(report.findings.filter { $0.code == .recordRequiredRelationship }.map(\.property) == ["items"])
        for name in ["alpha", "beta", "gamma", "passport"] {
            try shop.sql("INSERT INTO j_Bundle_items (owner, target) VALUES (?, ?)", [shop["bundle"], shop[name]])
        }
        found = shop.findings(.recordRelationshipCount)
        #expect(found.first?.count == 4)
        // passport is not a Product: that join row also dangles.
        #expect(shop.findings(.relationshipDanglingJoinRow).map(\.target) == [shop["passport"]])
    }
}
