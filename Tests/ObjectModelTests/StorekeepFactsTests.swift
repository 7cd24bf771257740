import ObjectModel
import Testing

@Suite("StorekeepFacts from userInfo")
struct StorekeepFactsTests {
    let names: Set<String> = ["name", "code", "theme"]

    func facts(_ userInfo: [String: String]) throws(ModelFactError) -> StorekeepFacts {
        try StorekeepFacts(userInfo: userInfo, entityName: "Thing", attributeNames: names)
    }

    @Test func absentKeysGiveDefaults() throws {
        let parsed = try facts(["unrelated": "x"])
        #expect(parsed == StorekeepFacts())
        #expect(parsed.isEmpty)
        #expect(parsed.invalidRecordPolicy == .keep)
    }

    @Test func readsEveryKey() throws {
        let parsed = try facts([
            "storekeep.seedKey": " name , code ,", "storekeep.singleton": "YES", "storekeep.invalidRecordPolicy": "Nullify",
        ])
        #expect(parsed.seedKey == ["name", "code"])
        #expect(parsed.isSingleton)
        #expect(parsed.invalidRecordPolicy == .nullify)
        #expect(!parsed.isEmpty)
        #expect(try facts(["storekeep.singleton": "no"]).isSingleton == false)
        #expect(try facts(["storekeep.singleton": "true"]).isSingleton == true)
    }

    @Test func rejectsBadValues() {
        #expect(throws: ModelFactError.self) { try facts(["storekeep.seedKey": "missing"]) }
        #expect(throws: ModelFactError.self) { try facts(["storekeep.seedKey": " , "]) }
        #expect(throws: ModelFactError.self) { try facts(["storekeep.singleton": "maybe"]) }
        #expect(throws: ModelFactError.self) { try facts(["storekeep.invalidRecordPolicy": "shred"]) }
        do {
            _ = try facts(["storekeep.seedKey": "name,missing"])
            Issue.record("expected an error")
        } catch {
            #expect(error.entity == "Thing")
            #expect(error.key == "storekeep.seedKey")
            #expect(error.description.contains("'missing'"))
        }
    }
}
