import Foundation
import LegacyFormats
import XcodeModel
import Testing

/// Xcode mapping models (`.xcmappingmodel`) read by ``XcodeMappingReader``: every one of the corpus,
/// what real apps put in them, and files that are broken.
@Suite struct XcodeMappingReaderTests {
    static func mapping(_ project: String, _ name: String) -> URL {
        Corpus.models.appendingPathComponent(project).appendingPathComponent("mappings/\(name).xcmappingmodel")
    }

    static var corpusMappings: [URL] { XcodeMappingReader.mappingModels(in: Corpus.models, depth: 3) }

    @Test("every corpus mapping model loads, naming versions of its project's bundle and entities they have",
          .enabled(if: Corpus.isPresent, Corpus.absentMessage))
    func everyCorpusMappingLoads() throws {
        let urls = Self.corpusMappings
        #expect(urls.count == 7, "\(urls.map(\.lastPathComponent))")
        for url in urls {
            let mapping = try XcodeMappingReader().read(at: url)
            #expect(!mapping.entityMappings.isEmpty, "\(url.lastPathComponent)")
            #expect(mapping.checksum.count == 64)
            let project = url.deletingLastPathComponent().deletingLastPathComponent()
            let bundleURL = try #require(try FileManager.default.contentsOfDirectory(atPath: project.path)
                .first { $0.hasSuffix(".xcdatamodeld") }.map { project.appendingPathComponent($0) })
            let bundle = try XcodeModelReader().readModel(at: bundleURL)
            #expect(mapping.modelName == bundle.name, "\(url.lastPathComponent)")
            let source = try bundle.version(named: mapping.sourceVersion)
            let destination = try bundle.version(named: mapping.destinationVersion)
            for entityMapping in mapping.entityMappings {
                if let name = entityMapping.sourceEntity { #expect(source.entity(named: name) != nil, "\(url.lastPathComponent): \(name)") }
                if let name = entityMapping.destinationEntity {
                    #expect(destination.entity(named: name) != nil, "\(url.lastPathComponent): \(name)")
                    for property in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                        #expect(destination.attribute(property.name, of: name) != nil || destination.relationship(property.name, of: name) != nil,
                                "\(url.lastPathComponent): \(name).\(property.name)")
                    }
                }
                for property in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                    if case .unsupported(let words)? = property.storedExpression { Issue.record("\(property.name): \(words)") }
                }
            }
        }
    }

    @Test("entity mappings: names, custom policies, mappings without a source, attached mappings only",
          .enabled(if: Corpus.isPresent, Corpus.absentMessage))
    func entityMappings() throws {
        let wibosco = try XcodeMappingReader().read(at: Self.mapping("wibosco-CoreDataMigrationRevised-Example", "Migration2to3ModelMapping"))
        #expect(wibosco.sourceVersion == "CoreDataMigration_Example 2" && wibosco.destinationVersion == "CoreDataMigration_Example 3")
        #expect(wibosco.entityMappings.map(\.name) == ["Section", "PostToPost"])
        #expect(wibosco.entityMapping(named: "PostToPost")?.migrationPolicyClass == "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
        #expect(wibosco.entityMapping(named: "Section")?.kind == .add)
        #expect(wibosco.entityMapping(named: "PostToPost")?.attributeMappings.map(\.name) == ["date", "hexColor", "postID"])

        let loopKit = try XcodeMappingReader().read(at: Self.mapping("LoopKit-LoopKit", "Modelv1v4"))
        #expect(loopKit.entityMappings.count == 6, "the file also holds 15 entity mappings no longer attached")
        #expect(loopKit.entityMapping(named: "DeletedCarbObjectToCachedCarbObject")?.destinationEntity == "CachedCarbObject")
    }

    @Test("value expressions: $source key paths, $manager functions, and Xcode's relationship key paths",
          .enabled(if: Corpus.isPresent, Corpus.absentMessage))
    func expressions() throws {
        let moody45 = try XcodeMappingReader().read(at: Self.mapping("objcio-core-data", "Moody 4-Moody 5"))
        let iso = try #require(moody45.entityMapping(named: "CountryToCountry")?.attributeMappings.first { $0.name == "isoContinent" })
        #expect(iso.storedExpression?.sourceKeyPath == ["continent", "numericISO3166Code"])
        #expect(iso.storedExpression?.text == "$source.continent.numericISO3166Code")

        let alemar = try XcodeMappingReader().read(at: Self.mapping("alemar11-CoreDataPlus", "V2toV3"))
        // A car's previous owners are its owner of version 2; a person's previous cars, its cars.
        let car = try #require(alemar.entityMapping(named: "CarToCar"))
        #expect(car.relationshipMappings.first { $0.name == "owner" }?.storedExpression == nil, "generated by Xcode at build time")
        let owner = try #require(car.relationshipMappings.first { $0.name == "previousOwners" })
        #expect(owner.storedExpression?.text
                == "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PersonToPerson\", $source.owner)")
        let cars = try #require(alemar.entityMapping(named: "PersonToPerson")?.relationshipMappings.first { $0.name == "previousCars" })
        guard case .function(let target?, let selector, let arguments)? = cars.storedExpression else {
            Issue.record("cars: \(String(describing: cars.storedExpression))")
            return
        }
        #expect(target == .variable("manager") && selector == "destinationInstancesForSourceRelationshipNamed:sourceInstances:")
        #expect(arguments.first == .constant(.string("cars")) && arguments.last?.sourceKeyPath == ["cars"])

        let moody23 = try XcodeMappingReader().read(at: Self.mapping("objcio-core-data", "Moody 2-Moody 3"))
        let continent = try #require(moody23.entityMapping(named: "MoodToMood")?.relationshipMappings.first { $0.name == "continent" })
        #expect(continent.sourceKeyPath == "$source.country.continent" && continent.sourceMappingName == "ContinentToContinent")
        #expect(continent.autogenerates)
    }

    @Test("broken files: one message naming the file, never a crash")
    func brokenFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcmapping-\(UUID().uuidString).xcmappingmodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("xcmapping.xml")
        func failure(_ text: String) -> XcodeMappingError? {
            try? Data(text.utf8).write(to: file)
            do {
                _ = try XcodeMappingReader().read(at: folder)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("<database><object type=\"X\" id=\"z1\"></database>")?.problem.hasPrefix("malformed XML") == true)
        #expect(failure("<plist/>")?.problem.contains("not a Core Data XML store") == true)
        #expect(failure("<database></database>")?.problem == "the file holds no mapping model object")
        #expect(failure("""
            <database><object type="XDDEVMAPPINGMODEL" id="z1">
            <attribute name="sourcemodelpath" type="string">M.xcdatamodeld/M.xcdatamodel</attribute>
            <attribute name="destinationmodelpath" type="string">M.xcdatamodeld/M 2.xcdatamodel</attribute>
            <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z9"></relationship>
            </object></database>
            """)?.problem.contains("z9") == true)
        // An expression that is not an archive loads as unsupported: only a property that needs it is reported.
        try Data("""
            <database><object type="XDDEVMAPPINGMODEL" id="z1">
            <attribute name="sourcemodelpath" type="string">M.xcdatamodeld/M.xcdatamodel</attribute>
            <attribute name="destinationmodelpath" type="string">M.xcdatamodeld/M 2.xcdatamodel</attribute>
            <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2"></relationship>
            </object><object type="XDDEVENTITYMAPPING" id="z2">
            <attribute name="sourcename" type="string">A</attribute><attribute name="destinationname" type="string">A</attribute>
            <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3"></relationship>
            </object><object type="XDDEVATTRIBUTEMAPPING" id="z3">
            <attribute name="name" type="string">x</attribute><attribute name="valueexpressiondata" type="binary">bm90IGFuIGFyY2hpdmU=</attribute>
            </object></database>
            """.utf8).write(to: file)
        let mapping = try XcodeMappingReader().read(at: folder)
        #expect(mapping.modelName == "M" && mapping.sourceVersion == "M" && mapping.destinationVersion == "M 2")
        #expect(mapping.entityMapping(named: "AToA")?.attributeMappings.first?.storedExpression == .unsupported("data that is not a keyed archive"))
        let missing = folder.appendingPathComponent("none.xcmappingmodel")
        #expect(throws: XcodeMappingError.self) { try XcodeMappingReader().read(at: missing) }
    }
}
