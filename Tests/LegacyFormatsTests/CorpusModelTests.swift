import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import Testing

@Suite("Real Xcode models from the corpus", .enabled(if: Corpus.isPresent, Corpus.absentMessage))
struct CorpusModelTests {
    let reader = XcodeModelReader()

    func isHexHash(_ text: String) -> Bool {
        text.count == 64 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    @Test func everyCorpusBundleLoads() throws {
        let bundles = Corpus.allModelBundles()
        #expect(bundles.count >= 14)
        for url in bundles {
            let bundle = try reader.readModel(at: url)
            #expect(bundle.name == url.deletingPathExtension().lastPathComponent)
            #expect(!bundle.versions.isEmpty, "\(url.path)")
            #expect(bundle.versions.contains { $0.versionName == bundle.currentVersionName }, "\(url.path)")
            for version in bundle.versions {
                #expect(!version.entities.isEmpty, "\(url.path) \(version.versionName)")
                #expect(isHexHash(version.versionHash), "\(url.path) \(version.versionName)")
            }
        }
    }

    @Test func wiboscoHasFourVersionsAndARename() throws {
        let bundle = try reader.readModel(at: Corpus.model("wibosco-CoreDataMigrationRevised-Example", "CoreDataMigration_Example"))
        #expect(bundle.versions.map(\.versionName) == [
            "CoreDataMigration_Example", "CoreDataMigration_Example 2",
            "CoreDataMigration_Example 3", "CoreDataMigration_Example 4",
        ])
        #expect(bundle.currentVersionName == "CoreDataMigration_Example 4")
        let renamed = bundle.versions.flatMap(\.entities).flatMap(\.attributes).filter { $0.elementID == "color" }
        #expect(renamed.map(\.name).contains("hexColor"))
    }

    @Test func coreDataPlusCurrentIsTheFirstVersion() throws {
        let bundle = try reader.readModel(at: Corpus.model("alemar11-CoreDataPlus", "SampleModel"))
        #expect(bundle.versions.count == 3)
        #expect(bundle.currentVersionName == "SampleModel")
        #expect(bundle.current.versionName == bundle.versions[0].versionName)
        let constraints = bundle.current.entities.flatMap(\.uniquenessConstraints)
        #expect(constraints.contains(["numberPlate"]))
        #expect(constraints.contains(["firstName", "lastName"]))
        let transient = bundle.current.entities.flatMap(\.attributes).first { $0.name == "isDriving" }
        #expect(transient?.isTransient == true)
        #expect(transient?.defaultValue == .boolean(false))
    }

    @Test func coreStoreConfigurationsOrderedAndDecimal() throws {
        let model = try reader.readModel(at: Corpus.model("JohnEstropia-CoreStore", "Model")).current
        #expect(model.configurations.map(\.name) == ["Config1", "Config2"])
        #expect(model.configurations.map(\.entityNames) == [["TestEntity1AAA"], ["TestEntity2"]])
        let ordered = model.relationship("testToManyOrdered", of: "TestEntity2")
        #expect(ordered?.isToMany == true && ordered?.isOrdered == true)
        let unordered = model.relationship("testToManyUnordered", of: "TestEntity1AAA")
        #expect(unordered?.isToMany == true && unordered?.isOrdered == false)
        #expect(model.attribute("testDecimal", of: "TestEntity1AAA")?.type == .decimal)
        #expect(model.attribute("testBoolean", of: "TestEntity1AAA")?.usesScalarValueType == false)
    }

    @Test func magicalRecordAbstractEntitiesAndUserInfo() throws {
        let model = try reader.readModel(at: Corpus.model("magicalpanda-MagicalRecord", "TestModel")).current
        #expect(model.entities.count == 12)
        #expect(model.entity(named: "AbstractRelatedEntity")?.isAbstract == true)
        #expect(model.entity(named: "ConcreteRelatedEntity")?.isAbstract == false)
        #expect(model.rootEntity(of: "ConcreteRelatedEntity")?.name == "AbstractRelatedEntity")
        #expect(model.descendants(of: "AbstractRelatedEntity").map(\.name) == ["ConcreteRelatedEntity"])
        #expect(model.entity(named: "EntityWithDifferentClassName")?.className == "DifferentClassNameMapping")
        let userInfos = model.entities.flatMap(\.attributes).map(\.userInfo) + model.entities.flatMap(\.relationships).map(\.userInfo)
        #expect(userInfos.contains { $0["mappedKeyName"] == "id" })
        #expect(userInfos.contains { $0["mappedKeyName.2"] == "actualMappedKey" })
        #expect(model.entities.contains { $0.userInfo["relatedByAttribute"] == "testPrimaryKey" })
    }

    @Test func maccyRegularExpressionAndLimits() throws {
        let model = try reader.readModel(at: Corpus.model("p0deje-Maccy", "Storage")).current
        let attributes = model.entities.flatMap(\.attributes)
        #expect(attributes.first { $0.name == "pin" }?.regularExpression == "^[abcdefghijklmnorstuvwxyz]*$")
        #expect(attributes.first { $0.name == "title" }?.maxValueString == "203")
        let ensembles = try reader.readModel(at: Corpus.model("drewmccormack-ensembles", "CDEEventStoreModel"))
        #expect(ensembles.currentVersionName == "CDEEventStoreModel_2")
        let revision = ensembles.current.entities.flatMap(\.attributes).first { $0.name == "revisionNumber" }
        #expect(revision?.minValueString == "0")
        #expect(revision?.isIndexed == true)
    }

    @Test func derivedAndTransientAttributes() throws {
        let share = try reader.readModel(at: Corpus.model("delawaremathguy-CoreDataCloudKitShare", "CoreDataCloudKitShare")).current
        let photoCount = share.entities.flatMap(\.attributes).first { $0.name == "photoCount" }
        #expect(photoCount?.isDerived == true)
        #expect(photoCount?.derivationExpression == "photos.@count")
        let demo = try reader.readModel(at: Corpus.model("ralfebert-SynchronizingALocalStoreToTheCloud", "CoreDataCloudKitDemo")).current
        let thumbnail = demo.entities.flatMap(\.attributes).first { $0.name == "thumbnail" }
        #expect(thumbnail?.isTransient == true && thumbnail?.type == .transformable)
        let sync = try reader.readModel(at: Corpus.model("apple-sample-cloudkit-coredatasync", "CoreDataSync"))
        #expect(sync.current.entity(named: "Contact") != nil)
    }

    @Test func momXMLComposites() throws {
        let model = try reader.readModel(at: Corpus.model("phimage-MomXML", "Model")).current
        #expect(model.composites.map(\.name) == ["Composite", "Composite1"])
        #expect(model.composites[0].attributes.map(\.name) == ["one", "two", "three"])
        #expect(model.composites[0].attributes[2].compositeName == "Composite1")
        let attribute = model.attribute("attribute1", of: "Produit")
        #expect(attribute?.type == .composite && attribute?.compositeName == "Composite")
        #expect(model.entity(named: "Client")?.userInfo == ["key": "value", "key1": "value"])
    }

    @Test func indexesAndUniquenessConstraints() throws {
        let loop = try reader.readModel(at: Corpus.model("LoopKit-LoopKit", "Model"))
        #expect(loop.currentVersionName == "Modelv4")
        let glucose = try #require(loop.current.entity(named: "CachedGlucoseObject"))
        #expect(glucose.fetchIndexes.map(\.name).contains("byStartDateDescendingIndex"))
        let descending = glucose.fetchIndexes.first { $0.name == "byStartDateDescendingIndex" }
        #expect(descending?.elements == [.init(property: "startDate", type: "Binary", ascending: false)])
        #expect(glucose.uniquenessConstraints.contains(["uuid"]))

        let moody = try reader.readModel(at: Corpus.model("objcio-core-data", "Moody"))
        #expect(moody.versions.count == 6)
        #expect(moody.currentVersionName == "Moody 6")
        let mood = try #require(moody.current.entity(named: "Mood"))
        #expect(mood.fetchIndexes.contains {
            $0.name.hasPrefix("compoundIndex")
                && $0.elements.map(\.property) == ["markedForRemoteDeletion", "markedForDeletionDate", "date"]
        })
        let constraints = moody.current.entities.flatMap(\.uniquenessConstraints).flatMap { $0 }
        #expect(constraints.contains("numericISO3166Code"))
    }
}
