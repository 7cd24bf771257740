import Foundation
import GRDB
import ObjectModel
import SyncStore
import Testing

/// End-to-end tests of `storekeep migrate` and `storekeep inspect` on the Apple Core Data stores of
/// the shared corpus, through the built binary.
///
/// Every expectation is computed from the source with plain SQL (``CoreDataSourceFacts``), never
/// with storekeep's reader; the target is read back with `SyncStore`.
@Suite("storekeep migrate: Core Data stores of the corpus")
struct CoreDataMigrationTests {
    static let corpusMessage = "the shared corpus (../shared/corpus/coredata-stores, ../shared/corpus/models) is absent"
    static var photos: String {
        ModelFiles.corpusCoreDataStores.appendingPathComponent("apple-Photos-macOS-10.15.7/Photos.sqlite").path
    }
    static var photosIsPresent: Bool { FileManager.default.fileExists(atPath: photos) }

    @Test("the corpus lists every store the issue names")
    func corpusIsComplete() {
        guard ModelFiles.coreDataCorpusIsPresent else { return }
        let names = ModelFiles.coreDataCorpusStores().map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names.count >= 8, "\(names)")
        for name in ["CoreDataBooks.sqlite", "Recipes.sqlite", "Photos.sqlite", "SampleModel_V2.sqlite", "CoreDataMigration_Example_3.sqlite"] {
            #expect(names.contains(name), "\(name) missing from \(names)")
        }
    }

    @Test("migrates with every entity's rows and every relationship",
          .enabled(if: ModelFiles.coreDataCorpusIsPresent, Comment(rawValue: corpusMessage)),
          arguments: ModelFiles.coreDataCorpusStores())
    func migratesEveryEntityAndRelationship(source: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent("x.store").path
        let facts = try CoreDataSourceFacts(path: source)
        let store = try migrate(source, to: target)

        let names = try checkCounts(facts, store, source: source)
        try checkToOnes(facts, store, names: names, source: source)
        let orderedLists = try checkJoinTables(facts, store, names: names, source: source)
            + checkOrderedChildren(facts, store, names: names, source: source)
        if source == Self.photos {
            #expect(try facts.joinTables().count == 14, "Photos has 14 many-to-many join tables")
            // Album.assets, AlbumList.albums (join tables) and Folder.childCollections (Z_FOK_PARENTFOLDER).
            #expect(orderedLists >= 3, "only \(orderedLists) ordered lists compared in Photos")
        }
    }

    @Test("a second run says alreadyCompleted and changes nothing; --dry-run writes nothing and estimates the source's rows",
          .enabled(if: photosIsPresent, Comment(rawValue: corpusMessage)))
    func rerunAndDryRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let facts = try CoreDataSourceFacts(path: Self.photos)

        let planned = directory.url.appendingPathComponent("planned.store").path
        let dry = try StorekeepProcess.run(["migrate", Self.photos, "--to", planned, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry)")
        let plan = try dry.jsonObject()
        #expect(plan["mode"] as? String == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty, "a dry run wrote files")
        let streams = plan["streams"] as? [[String: Any]] ?? []
        let estimated = Dictionary(streams.compactMap { stream -> (String, Int)? in
            guard let entity = stream["entity"] as? String, let rows = stream["estimatedRows"] as? Int else { return nil }
            return (entity, rows)
        }, uniquingKeysWith: +)
        #expect(estimated.count == streams.count, "\(streams)")
        let target = directory.url.appendingPathComponent("x.store").path
        let store = try migrate(Self.photos, to: target)
        let names = facts.modelNames(in: store.model)
        for (number, rows) in facts.counts where rows > 0 {
            #expect(estimated[names[number] ?? "?"] == rows, "estimatedRows of \(facts.entities[number]!.storedName)")
        }
        #expect(estimated.values.reduce(0, +) == facts.totalRows)
        #expect(Set(estimated.keys) == Set(store.model.entities.filter { !$0.isAbstract }.map(\.name)))

        let before = try StorekeepProcess.run(["digest", target, "--json"]).jsonObject()["digest"] as? String
        let again = try StorekeepProcess.run(["migrate", Self.photos, "--to", target, "--json"])
        #expect(again.status == 0, "\(again)")
        #expect(try again.jsonObject()["outcome"] as? String == "alreadyCompleted")
        let after = try StorekeepProcess.run(["digest", target, "--json"]).jsonObject()["digest"] as? String
        #expect(before != nil && before == after)
        #expect(try SyncStore.open(at: target, readOnly: true).liveRecordCounts().values.reduce(0, +) == facts.totalRows)

        let replanned = try StorekeepProcess.run(["migrate", Self.photos, "--to", target, "--dry-run", "--json"])
        #expect(replanned.status == 0, "\(replanned)")
        #expect(try replanned.jsonObject()["mode"] as? String == "alreadyCompleted")
    }

    @Test("the source folder is byte for byte the same after a migration, with no new file",
          .enabled(if: photosIsPresent, Comment(rawValue: corpusMessage)))
    func sourceIsNeverModified() throws {
        let folder = URL(fileURLWithPath: Self.photos).deletingLastPathComponent()
        let before = try snapshot(of: folder)
        #expect(before.keys.contains("Photos.sqlite-wal"))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try migrate(Self.photos, to: directory.url.appendingPathComponent("x.store").path)
        let inspected = try StorekeepProcess.run(["inspect", Self.photos, "--json"])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(try snapshot(of: folder) == before)
    }

    @Test("inspect counts what SQL counts",
          .enabled(if: photosIsPresent, Comment(rawValue: corpusMessage)))
    func inspectCounts() throws {
        let facts = try CoreDataSourceFacts(path: Self.photos)
        let result = try StorekeepProcess.run(["inspect", Self.photos, "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect(document["kind"] as? String == "coreDataStore")
        let coreData = document["coreData"] as? [String: Any]
        #expect(coreData?["storeUUID"] as? String == facts.uuid)
        let entities = coreData?["entities"] as? [[String: Any]] ?? []
        let counts = Dictionary(entities.compactMap { entity -> (String, Int)? in
            guard let name = entity["name"] as? String, let count = entity["count"] as? Int else { return nil }
            return (name, count)
        }, uniquingKeysWith: +)
        #expect(counts.count == facts.entities.count, "\(counts.keys.sorted())")
        for (number, entity) in facts.entities {
            #expect(counts[entity.storedName] == facts.counts[number], "\(entity.storedName)")
        }
    }

    @Test("digest reads the migrated store and counts every record",
          .enabled(if: photosIsPresent, Comment(rawValue: corpusMessage)))
    func digestAfterMigration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let facts = try CoreDataSourceFacts(path: Self.photos)
        let target = directory.url.appendingPathComponent("x.store").path
        let migrated = try StorekeepProcess.run(["migrate", Self.photos, "--to", target, "--json"])
        #expect(migrated.status == 0, "\(migrated)")
        let digest = try StorekeepProcess.run(["digest", target, "--json"])
        #expect(digest.status == 0, "\(digest)")
        let document = try digest.jsonObject()
        #expect(document["records"] as? Int == facts.totalRows)
        #expect(document["digest"] as? String == (try migrated.jsonObject()["digest"] as? String))
        let perEntity = (document["entities"] as? [String: Any] ?? [:]).values.compactMap { ($0 as? [String: Any])?["records"] as? Int }
        #expect(perEntity.reduce(0, +) == facts.totalRows)
    }

    // MARK: - Checks

    /// Runs `storekeep migrate SOURCE --to TARGET --json`, expects a verified, completed run and opens the target.
    private func migrate(_ source: String, to target: String) throws -> SyncStore {
        let result = try StorekeepProcess.run(["migrate", source, "--to", target, "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        #expect(document["outcome"] as? String == "completed", "\(result)")
        #expect(document["verified"] as? Bool == true, "\(result)")
        #expect(document["sourceKind"] != nil)
        return try SyncStore.open(at: target, readOnly: true)
    }

    /// Every source entity has a model entity, holding as many records as the source has rows of it.
    private func checkCounts(_ facts: CoreDataSourceFacts, _ store: SyncStore, source: String) throws -> [Int64: String] {
        let names = facts.modelNames(in: store.model)
        let counts = try store.liveRecordCounts()
        for (number, entity) in facts.entities.sorted(by: { $0.key < $1.key }) {
            guard let name = names[number] else {
                Issue.record("\(source): entity \(entity.storedName) (Z_ENT \(number)) is not in the target's model")
                continue
            }
            #expect(counts[name] == facts.counts[number], "\(source): \(name) (stored as \(entity.storedName))")
        }
        #expect(Set(names.values).count == names.count, "\(source): two entities got one name: \(names)")
        #expect(counts.values.reduce(0, +) == facts.totalRows, "\(source): \(counts)")
        return names
    }

    /// Every to-one relationship of the model: the target's `toOne` equals the source's foreign
    /// keys, record by record, naming the exact entity of the row the key points at.
    private func checkToOnes(_ facts: CoreDataSourceFacts, _ store: SyncStore, names: [Int64: String], source: String) throws {
        let numbers = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
        let everyID = Set(try store.model.rootEntities.flatMap { try store.globalIDs(of: $0.name) }.map(\.rawValue))
        for (number, entity) in facts.entities.sorted(by: { $0.key < $1.key }) {
            guard let name = names[number] else { continue }
            let columns = try facts.columns(of: entity.table)
            let toOnes = store.model.relationships(of: name).filter { !$0.isToMany && !$0.isTransient }
            let records = toOnes.isEmpty ? [] : try store.globalIDs(of: name, includingSubentities: false).compactMap { try store.record($0) }
            for relationship in toOnes {
                let column = "Z" + relationship.name.uppercased()
                guard columns.contains(column) else {
                    Issue.record("\(source): \(name).\(relationship.name) has no column \(column) in \(entity.table)")
                    continue
                }
                guard let destination = numbers[relationship.destination].flatMap({ facts.entities[$0] }) else {
                    Issue.record("\(source): \(name).\(relationship.name) goes to \(relationship.destination), not in the store")
                    continue
                }
                var expected: [String: String] = [:]
                let rows = try facts.integers(
                    """
                    SELECT s.Z_PK, s.\(column), d.Z_ENT FROM \(entity.table) s
                    LEFT JOIN \(destination.table) d ON d.Z_PK = s.\(column)
                    WHERE s.Z_ENT = ? AND s.\(column) IS NOT NULL AND s.\(column) != 0
                    """, [number])
                for row in rows {
                    guard let exact = row[2], let targetName = names[exact] else {
                        Issue.record("\(source): \(name) p\(row[0]!).\(relationship.name) points at p\(row[1]!), absent from \(destination.table)")
                        continue
                    }
                    expected[facts.globalID(entity: name, primaryKey: row[0]!)] = facts.globalID(entity: targetName, primaryKey: row[1]!)
                }
                var actual: [String: String] = [:]
                for record in records {
                    if let target = record.toOne[relationship.name] { actual[record.globalID.rawValue] = target.rawValue }
                }
                #expect(actual.count == rows.count, "\(source): \(name).\(relationship.name): \(rows.count) keys set in \(column)")
                #expect(actual == expected, "\(source): \(name).\(relationship.name)")
                #expect(actual.values.allSatisfy(everyID.contains), "\(source): \(name).\(relationship.name) points at missing records")
            }
        }
    }

    /// Every join table `Z_<n><NAME>`: its pairs are exactly the pairs the target reports from
    /// both sides, and ordered sides list their members in `Z_FOK_` order. Returns how many
    /// ordered lists were compared.
    private func checkJoinTables(_ facts: CoreDataSourceFacts, _ store: SyncStore, names: [Int64: String], source: String) throws -> Int {
        var orderedLists = 0
        let numbers = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
        for join in try facts.joinTables() {
            guard let ownerName = names[join.entity],
                  let relationship = store.model.relationships(of: ownerName).first(where: { $0.isToMany && $0.name.uppercased() == join.relationship }),
                  let destination = numbers[relationship.destination].flatMap({ facts.entities[$0] }),
                  let inverse = relationship.inverseName.flatMap({ store.model.relationship($0, of: relationship.destination) })
            else {
                Issue.record("\(source): join table \(join.table) matches no many-to-many relationship of the target's model")
                continue
            }
            let columns = try facts.columns(of: join.table)
            let keyColumns = columns.filter { !$0.hasPrefix("Z_FOK_") }
            let isReflexive = relationship.name == inverse.name && relationship.destination == ownerName
            let memberColumn = isReflexive ? "REFLEXIVE" : keyColumns.first { column in
                column.hasPrefix("Z_") && column.hasSuffix(join.relationship)
                    && column.dropFirst(2).dropLast(join.relationship.count).allSatisfy(\.isNumber)
            }
            guard keyColumns.count == 2, let memberColumn, let ownerColumn = keyColumns.first(where: { $0 != memberColumn }) else {
                Issue.record("\(source): cannot tell the columns of \(join.table): \(columns)")
                continue
            }
            let ownerTable = facts.entities[join.entity]!.table
            let pairs = try facts.integers(
                """
                SELECT o.Z_ENT, j.\(ownerColumn), m.Z_ENT, j.\(memberColumn) FROM \(join.table) j
                LEFT JOIN \(ownerTable) o ON o.Z_PK = j.\(ownerColumn)
                LEFT JOIN \(destination.table) m ON m.Z_PK = j.\(memberColumn)
                """)
            var expected: [String] = []
            for pair in pairs {
                guard let ownerEntity = pair[0].flatMap({ names[$0] }), let memberEntity = pair[2].flatMap({ names[$0] }) else {
                    Issue.record("\(source): \(join.table) has a row naming a missing record: \(pair)")
                    continue
                }
                expected.append(facts.globalID(entity: ownerEntity, primaryKey: pair[1]!) + " " + facts.globalID(entity: memberEntity, primaryKey: pair[3]!))
            }
            var fromOwners: [String] = []
            for owner in try store.globalIDs(of: ownerName) {
                fromOwners += try store.related(relationship.name, of: owner).map { owner.rawValue + " " + $0.rawValue }
            }
            var fromMembers: [String] = []
            for member in try store.globalIDs(of: relationship.destination) {
                fromMembers += try store.related(inverse.name, of: member).map { $0.rawValue + " " + member.rawValue }
            }
            #expect(fromOwners.count == pairs.count, "\(source): \(join.table) has \(pairs.count) rows; \(ownerName).\(relationship.name)")
            #expect(fromOwners.sorted() == expected.sorted(), "\(source): \(join.table) from \(ownerName).\(relationship.name)")
            #expect(fromMembers.sorted() == expected.sorted(), "\(source): \(join.table) from \(relationship.destination).\(inverse.name)")

            // Z_FOK_<member column> orders the relationship's members per owner; Z_FOK_<owner column> the inverse's.
            for order in columns where order.hasPrefix("Z_FOK_") {
                let ordered = "Z_" + order.dropFirst("Z_FOK_".count)
                let (key, listed, keyTable, listedTable, name): (String, String, String, String, String)
                if ordered == memberColumn {
                    (key, listed, keyTable, listedTable, name) = (ownerColumn, memberColumn, ownerTable, destination.table, relationship.name)
                } else if ordered == ownerColumn {
                    (key, listed, keyTable, listedTable, name) = (memberColumn, ownerColumn, destination.table, ownerTable, inverse.name)
                } else {
                    Issue.record("\(source): \(join.table).\(order) orders no column of the table")
                    continue
                }
                #expect(name == relationship.name ? relationship.isOrdered : inverse.isOrdered, "\(source): \(join.table).\(order) but not ordered in the model")
                orderedLists += try checkOrder(
                    facts, store, names: names, relationship: name, source: "\(source): \(join.table) by \(order)",
                    sql: """
                        SELECT k.Z_ENT, j.\(key), l.Z_ENT, j.\(listed) FROM \(join.table) j
                        JOIN \(keyTable) k ON k.Z_PK = j.\(key) JOIN \(listedTable) l ON l.Z_PK = j.\(listed)
                        ORDER BY j.\(key), j.\(order), j.\(listed)
                        """)
            }
        }
        return orderedLists
    }

    /// Ordered to-many relationships whose inverse is a to-one: the children's `Z_FOK_<INVERSE>`
    /// order. Returns how many ordered lists were compared.
    private func checkOrderedChildren(_ facts: CoreDataSourceFacts, _ store: SyncStore, names: [Int64: String], source: String) throws -> Int {
        var orderedLists = 0
        let numbers = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
        var checked: Set<String> = []
        for (number, entity) in facts.entities.sorted(by: { $0.key < $1.key }) {
            guard let name = names[number] else { continue }
            let columns = try facts.columns(of: entity.table)
            for toOne in store.model.relationships(of: name) where !toOne.isToMany && !toOne.isTransient {
                guard let inverse = toOne.inverseName.flatMap({ store.model.relationship($0, of: toOne.destination) }),
                      inverse.isToMany, inverse.isOrdered else { continue }
                let order = "Z_FOK_" + toOne.name.uppercased()
                #expect(columns.contains(order), "\(source): \(toOne.destination).\(inverse.name) is ordered but \(entity.table) has no \(order)")
                guard columns.contains(order), let parent = numbers[toOne.destination].flatMap({ facts.entities[$0] }),
                      checked.insert("\(entity.table).\(order)").inserted else { continue }
                let column = "Z" + toOne.name.uppercased()
                orderedLists += try checkOrder(
                    facts, store, names: names, relationship: inverse.name, source: "\(source): \(entity.table) by \(order)",
                    sql: """
                        SELECT p.Z_ENT, c.\(column), c.Z_ENT, c.Z_PK FROM \(entity.table) c
                        JOIN \(parent.table) p ON p.Z_PK = c.\(column)
                        WHERE c.\(column) IS NOT NULL AND c.\(column) != 0
                        ORDER BY c.\(column), c.\(order), c.Z_PK
                        """)
            }
        }
        return orderedLists
    }

    /// `sql` gives (owner Z_ENT, owner Z_PK, member Z_ENT, member Z_PK) in the source's order; each
    /// owner's `related(relationship)` must list its members in that order. Returns how many owners
    /// were compared.
    private func checkOrder(
        _ facts: CoreDataSourceFacts, _ store: SyncStore, names: [Int64: String], relationship: String, source: String, sql: String
    ) throws -> Int {
        var lists: [String: [String]] = [:]
        var owners: [String] = []
        for row in try facts.integers(sql) {
            guard let ownerEntity = row[0].flatMap({ names[$0] }), let memberEntity = row[2].flatMap({ names[$0] }) else { continue }
            let owner = facts.globalID(entity: ownerEntity, primaryKey: row[1]!)
            if lists[owner] == nil { owners.append(owner) }
            lists[owner, default: []].append(facts.globalID(entity: memberEntity, primaryKey: row[3]!))
        }
        for owner in owners {
            let related = try store.related(relationship, of: GlobalID(owner)).map(\.rawValue)
            #expect(related == lists[owner], "\(source): \(owner).\(relationship)")
        }
        return owners.count
    }

    /// Name → (size, SHA-256) of every file in `folder`.
    private func snapshot(of folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            var hash = SHA256()
            hash.update(data)
            files[name] = "\(data.count) " + hash.finalize().map { String(format: "%02x", $0) }.joined()
        }
        return files
    }
}
