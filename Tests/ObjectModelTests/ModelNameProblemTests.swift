import ObjectModel
import Testing

/// Names a store cannot hold are problems of the model, whatever file the model came from.
@Suite("ManagedModel.problems(): names a store cannot hold")
struct ModelNameProblemTests {
    func problems(_ entities: [EntityDescription], configurations: [ConfigurationDescription] = [],
                  composites: [CompositeDescription] = []) -> [ModelProblem] {
        ManagedModel(name: "M", versionName: "M", entities: entities, configurations: configurations, composites: composites).problems()
    }

    @Test("a NUL in an entity, attribute, relationship, configuration or composite name is a problem naming it, shown as \\0")
    func nulInAnyNameIsAProblem() {
        let entity = problems([.init(name: "Ta\u{0}sk")])
        #expect(entity.map(\.description) == ["the name of entity Ta\\0sk holds a NUL character (U+0000), which SQLite cannot keep in a name"])
        #expect(entity.first?.entity == "Ta\u{0}sk")

        let attribute = problems([.init(name: "A", attributes: [.init(name: "ti\u{0}tle", type: .string)])])
        #expect(attribute.map(\.description) == ["the name of attribute A.ti\\0tle holds a NUL character (U+0000), which SQLite cannot keep in a name"])
        #expect(attribute.first?.property == "ti\u{0}tle")

        let relationship = problems([.init(name: "A", relationships: [.init(name: "o\u{0}", destination: "A", isOptional: true)])])
        #expect(relationship.map(\.description).contains { $0.hasPrefix("the name of relationship A.o\\0 holds a NUL") })

        let configuration = problems([.init(name: "A")], configurations: [.init(name: "Cloud\u{0}", entityNames: ["A"])])
        #expect(configuration.map(\.description) == ["the name of configuration Cloud\\0 holds a NUL character (U+0000), which SQLite cannot keep in a name"])
        #expect(configuration.first?.configuration == "Cloud\u{0}")

        let composite = problems([.init(name: "A")], composites: [.init(name: "Place", attributes: [.init(name: "l\u{0}at", type: .double)])])
        #expect(composite.map(\.description) == ["the name of composite attribute Place.l\\0at holds a NUL character (U+0000), which SQLite cannot keep in a name"])
    }

    @Test("a configuration name holding '/' or '..' is a problem: a seed configuration's store file is named with it",
          arguments: ["../escape", "a/b", "/tmp/x", "..", "a..b"])
    func pathInConfigurationName(_ name: String) {
        let found = problems([.init(name: "A")], configurations: [.init(name: name, entityNames: ["A"])])
        #expect(found.count == 1 && found.first?.configuration == name, "\(found)")
        #expect(found.first?.description.hasPrefix("the name of configuration \(name) holds") == true, "\(found)")
        // In an entity or attribute name, the same characters are safe: they never name a file.
        #expect(problems([.init(name: name, attributes: [.init(name: name, type: .string)])]).isEmpty)
    }

    @Test("an empty name is a problem")
    func emptyNameIsAProblem() {
        #expect(problems([.init(name: "")]).map(\.description).contains("the name of entity  is empty"))
        #expect(problems([.init(name: "A", attributes: [.init(name: "", type: .string)])]).map(\.description)
            == ["the name of attribute A. is empty"])
    }

    @Test("quotes, semicolons, comment marks, 10,000 characters and non-ASCII are names like any other")
    func otherHostileNamesAreUsable() {
        for name in ["a\"b", "it's", "x; DROP TABLE e_A; --", "--", String(repeating: "n", count: 10_000), "ünïcødé 名前"] {
            let model = [EntityDescription(name: name, attributes: [.init(name: name, type: .string)],
                                           relationships: [.init(name: name + "r", destination: name, isOptional: true)])]
            #expect(problems(model, configurations: [.init(name: name, entityNames: [name])]).isEmpty, "\(name.prefix(40))")
        }
    }

    @Test("a configuration listing an entity the model does not have is a problem")
    func configurationWithUnknownMember() {
        let found = problems([.init(name: "A")], configurations: [.init(name: "Cloud", entityNames: ["A", "Gone"])])
        #expect(found.map(\.description) == ["configuration Cloud lists entity Gone, which is not in the model"])
        #expect(found.first?.configuration == "Cloud")
    }

    @Test("each structural problem says which entity and property it is about, and a repeat is the second occurrence")
    func problemsNameTheirPlace() {
        let twice = problems([.init(name: "A", attributes: [.init(name: "x", type: .string), .init(name: "x", type: .string)])])
        #expect(twice.first?.entity == "A" && twice.first?.property == "x" && twice.first?.occurrence == 2)
        let declaredTwice = problems([.init(name: "A"), .init(name: "A")])
        #expect(declaredTwice.first?.entity == "A" && declaredTwice.first?.property == nil && declaredTwice.first?.occurrence == 2)
        let inherited = problems([
            .init(name: "A", attributes: [.init(name: "x", type: .string)]),
            .init(name: "B", parentName: "A", relationships: [.init(name: "x", destination: "A", isOptional: true)]),
        ])
        #expect(inherited.first?.entity == "B" && inherited.first?.property == "x")
        let destination = problems([.init(name: "A", relationships: [.init(name: "r", destination: "Q")])])
        #expect(destination.first?.entity == "A" && destination.first?.property == "r")
    }

    @Test("names in messages show control characters as escapes and cut very long names with their length")
    func namesAreShownSafely() {
        #expect("Ta\u{0}sk".shownInMessage == "Ta\\0sk")
        #expect("a\u{7}b\u{1F}".shownInMessage == "a\\u{7}b\\u{1f}")
        #expect("Speech".shownInMessage == "Speech")
        let long = String(repeating: "x", count: 10_000).shownInMessage
        #expect(long.hasSuffix("… (10000 characters)") && long.count < 300)
    }
}
