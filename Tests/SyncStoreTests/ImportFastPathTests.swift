import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// The import's fast paths (statements bound in place, history JSON cached by property set,
/// records checked once) write exactly what the plain path writes.
@Suite struct ImportFastPathTests {
    @Test func historyPropertiesAreCachedPerEntityAndNameSet() {
        var cache = HistoryPropertiesCache()
        let a = ImportRecord(entity: "Task", globalID: GlobalID("a"), values: ["title": .string("x"), "priority": .integer(1)])
        let b = ImportRecord(entity: "Task", globalID: GlobalID("b"), values: ["priority": .integer(2), "title": .string("y")])
        let c = ImportRecord(entity: "Task", globalID: GlobalID("c"), values: ["title": .string("z")], toOne: ["project": GlobalID("p")])
        let d = ImportRecord(entity: "Tag", globalID: GlobalID("d"), values: ["title": .string("z")], toMany: ["items": []])
        #expect(cache.properties(of: a, defaulted: ["done"]) == #"["done","priority","title"]"#)
        #expect(cache.properties(of: b, defaulted: ["done"]) == #"["done","priority","title"]"#)
        #expect(cache.count == 1, "same entity, same names: one entry")
        #expect(cache.properties(of: c, defaulted: ["done", "title"]) == #"["done","project","title"]"#)
        #expect(cache.properties(of: d, defaulted: []) == #"["items","title"]"#)
        #expect(cache.count == 3)
    }

    /// The history list built from a record's property bits (as a writer gathers them) is the list the general path builds,
    /// for a record setting everything, one setting nothing, and each with one property dropped;
    /// a name that is not the entity's gives no bits.
    @Test func historyListsFromPropertyBitsMatchTheGeneralPath() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        #expect(store.plans.count >= 5)
        for (entity, plan) in store.plans.sorted(by: { $0.key < $1.key }) {
            let full = ImportRecord(
                entity: entity, globalID: GlobalID("g"),
                values: AttributeValues(Dictionary(uniqueKeysWithValues: plan.typeByName.keys.map { ($0, AttributeValue.null) })),
                toOne: Dictionary(uniqueKeysWithValues: plan.toOne.map { ($0.name, GlobalID("t")) }),
                toMany: Dictionary(uniqueKeysWithValues: plan.joinedToMany.map { ($0, [GlobalID]()) }))
            var variants = [full, ImportRecord(entity: entity, globalID: GlobalID("e"), values: [:])]
            for name in plan.propertyNames {
                var partial = full
                partial.values[name] = nil
                partial.toOne[name] = nil
                partial.toMany[name] = nil
                variants.append(partial)
            }
            for record in variants {
                var cache = HistoryPropertiesCache()
                let mask = try #require(plan.propertyMask(of: record, attributesAndToOnes: gatheredBits(plan, record)), "\(entity)")
                #expect(plan.propertiesJSON(mask: mask) == cache.properties(of: record, defaulted: plan.defaultedAttributes), "\(entity)")
            }
            var stranger = full
            stranger.values["notAProperty"] = .integer(1)
            #expect(plan.propertyMask(of: stranger, attributesAndToOnes: gatheredBits(plan, stranger)) == nil, "\(entity)")
        }
    }

    /// The bits a writer gathers while it looks each attribute and to-one relationship up.
    private func gatheredBits(_ plan: EntityPlan, _ record: ImportRecord) -> UInt64 {
        var mask: UInt64 = 0
        for (position, column) in plan.columns.enumerated() where record.values.value(named: column.name, nameIsASCII: column.nameIsASCII) != nil {
            mask |= plan.columnBits[position]
        }
        for (position, relationship) in plan.toOne.enumerated() where record.toOne[relationship.name] != nil {
            mask |= plan.toOneBits[position]
        }
        return mask
    }

    @Test func historyPropertiesEscapeJSON() {
        #expect(HistoryPropertiesCache.json(["a\"b", "c\\d", "e\u{1}"]) == #"["a\"b","c\\d","e\u0001"]"#)
    }

    @Test func theCacheStaysBounded() {
        var cache = HistoryPropertiesCache()
        for index in 0..<(HistoryPropertiesCache.capacity * 3) {
            let record = ImportRecord(entity: "Tag", globalID: GlobalID("g\(index)"), values: ["n\(index)": .integer(1)])
            #expect(cache.properties(of: record, defaulted: []) == "[\"n\(index)\"]")
            #expect(cache.count <= HistoryPropertiesCache.capacity)
        }
    }

    @Test func aCheckedBatchWritesWhatAnUncheckedBatchWrites() throws {
        let folder = try TemporaryFolder()
        var dumps: [[String]] = []
        for checked in [false, true] {
            let store = try SyncStore.create(at: folder.path("\(checked).store"), model: TestModels.workspace(), contentName: "W", peerID: "P")
            let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
            let records = [ImportRecord(entity: "Project", globalID: GlobalID("p"), values: ["name": .string("P")])]
                + (0..<50).map {
                    ImportRecord(entity: "Task", globalID: GlobalID("t\($0)"), values: ["title": .string("t\($0)"), "priority": .integer(Int64($0))],
                                 toOne: $0.isMultiple(of: 2) ? ["project": GlobalID("p")] : [:], toOneOrder: ["project": Int64($0)],
                                 seed: $0 == 3 ? SeedMark(set: "s", version: 4) : nil)
                }
                + [ImportRecord(entity: "Attachment", globalID: GlobalID("a"), values: ["data": .binary(Data(repeating: 7, count: 9000))]),
                   ImportRecord(entity: "Tag", globalID: GlobalID("red"), values: ["name": .string("red")], toMany: ["items": [GlobalID("t1")]])]
            for record in records { #expect(store.problem(with: record) == nil) }
            try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: 52, rows: 53, rejected: 0), checked: checked)
            #expect(try store.contentDigest().records == records.count)
            dumps.append(try DatabaseQueue(path: store.path).read { db in
                let changes = try store.transactions().flatMap(\.changes).map { "\($0)" }
                let tasks = try Row.fetchAll(db, sql: "SELECT * FROM \(store.layout.tableOfEntity["Task"]!.quotedDatabaseIdentifier) ORDER BY _gid")
                    .map { row in row.description.replacingOccurrences(of: #"_created:[0-9.e+]+"#, with: "", options: .regularExpression) }
                return changes + tasks + [try store.contentDigest().digest]
            })
        }
        #expect(dumps[0] == dumps[1])
    }

    /// Blob files are written before a batch's rows (and synced while the rows are inserted):
    /// each record still refers to its own value's file, whatever its position in the batch.
    @Test func largeValuesWrittenAheadBelongToTheirOwnRecords() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("b.store"), model: TestModels.workspace(), contentName: "W", peerID: "P")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let values = (0..<7).map { index in index.isMultiple(of: 3) ? Data(repeating: UInt8(index), count: 5_000 + index) : Data([UInt8(index)]) }
        let records = values.enumerated().map { index, data in
            ImportRecord(entity: "Attachment", globalID: GlobalID("a\(index)"), values: ["data": .binary(data), "inlineData": .binary(values[0])])
        } + [ImportRecord(entity: "Attachment", globalID: GlobalID("same"), values: ["data": .binary(values[3])])]
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: 7, rows: records.count, rejected: 0), checked: true)
        for record in records {
            let stored = try #require(try store.record(record.globalID))
            #expect(stored.values["data"] == record.values["data"], "\(record.globalID)")
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: store.blobDirectory.path).filter { $0.count > 3 }
        #expect(files.count == 3, "one file per distinct large value: \(files)")
    }

    @Test func aCheckedBatchStillRefusesAValueOfTheWrongKind() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        let bad = ImportRecord(entity: "Task", globalID: GlobalID("x"), values: ["priority": .string("high")])
        #expect(throws: StoreError.self) {
            try load.importBatch([bad], checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: 1, rejected: 0), checked: true)
        }
        #expect(try store.liveRecordCounts()["Task"] == 0)
    }

    /// The writer keeps the last record's plan to skip a lookup; records of several entities
    /// interleaved in one batch must still each be written through their own entity's plan.
    @Test func interleavedEntitiesInOneBatchEachUseTheirOwnPlan() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W", peerID: "P")
        let load = try store.beginBulkLoad(key: "k", version: "v", description: "d", source: "s", checksum: "c", author: "m")
        var records: [ImportRecord] = []
        for index in 0..<6 {
            records.append(ImportRecord(entity: "Task", globalID: GlobalID("t\(index)"), values: ["title": .string("t\(index)"), "priority": .integer(Int64(index))]))
            records.append(ImportRecord(entity: "Tag", globalID: GlobalID("g\(index)"), values: ["name": .string("g\(index)")]))
            if index.isMultiple(of: 2) {
                records.append(ImportRecord(entity: "Project", globalID: GlobalID("p\(index)"), values: ["name": .string("p\(index)")]))
            }
        }
        try load.importBatch(records, checkpoint: MigrationCheckpoint(stream: "s", position: 0, rows: records.count, rejected: 0), checked: true)
        for record in records {
            let stored = try #require(try store.record(record.globalID))
            #expect(stored.entity == record.entity)
            for (name, value) in record.values { #expect(stored.values[name] == value, "\(record.globalID).\(name)") }
        }
        let transactions = try store.transactions()
        #expect(transactions.count == 1)
        let changes = transactions.flatMap(\.changes)
        var cache = HistoryPropertiesCache()
        #expect(changes.count == records.count)
        // Listed table by table, in table-name order, each table's records in the order written.
        let table = { (record: ImportRecord) in store.layout.tableOfEntity[record.entity]! }
        let expected = records.enumerated().sorted { table($0.element) == table($1.element) ? $0.offset < $1.offset
            : table($0.element) < table($1.element) }.map(\.element)
        for (change, record) in zip(changes, expected) {
            #expect(change.entity == record.entity)
            #expect(change.globalID == record.globalID)
            #expect(change.kind == .insert)
            #expect(change.properties == (try JSONDecoder().decode([String].self, from: Data(
                cache.properties(of: record, defaulted: store.plans[record.entity]!.defaultedAttributes).utf8))))
        }
    }

    /// Finding an attribute's column from a starting position finds every name from every start,
    /// wraps round, and finds nothing for a name that is not an attribute.
    @Test func columnLookupFindsEveryNameFromAnyStart() throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("w.store"), model: TestModels.workspace(), contentName: "W")
        let plan = try #require(store.plans["Task"])
        #expect(plan.columns.count >= 2)
        for (expected, column) in plan.columns.enumerated() {
            for start in 0...(plan.columns.count + 1) {
                #expect(plan.columnIndex(named: column.name, from: start) == expected, "\(column.name) from \(start)")
            }
        }
        #expect(plan.columnIndex(named: "project", from: 0) == nil, "a relationship is not an attribute column")
        #expect(plan.columnIndex(named: "", from: 1) == nil)
    }

    /// A name written in another Unicode form than the model's (`e` + U+0301 against `é`) is the
    /// same attribute, as it was for the dictionary lookup the column search replaced.
    @Test func columnLookupMatchesCanonicallyEqualNames() throws {
        let folder = try TemporaryFolder()
        let model = ManagedModel(name: "M", versionName: "1", entities: [
            EntityDescription(name: "E", attributes: [.init(name: "café", type: .string, isOptional: true), .init(name: "n", type: .integer64, isOptional: true)]),
        ])
        let store = try SyncStore.create(at: folder.path("u.store"), model: model, contentName: "U")
        let plan = try #require(store.plans["E"])
        let cafe = try #require(plan.columns.firstIndex { $0.name == "café" })
        for start in 0..<3 { #expect(plan.columnIndex(named: "cafe\u{301}", from: start) == cafe) }
        #expect(store.problem(with: ImportRecord(entity: "E", globalID: GlobalID("g"), values: ["cafe\u{301}": .string("x")])) == nil)
        #expect(store.problem(with: ImportRecord(entity: "E", globalID: GlobalID("g"), values: ["cafe": .string("x")])) != nil)
    }
}
