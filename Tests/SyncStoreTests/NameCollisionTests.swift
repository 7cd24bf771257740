import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// Model names whose SQL names SQLite cannot tell apart are refused when a store is created,
/// naming both; names that are distinct in SQLite, however odd, make a store holding them exactly.
@Suite struct NameCollisionTests {
    func creationError(_ entities: [EntityDescription]) throws -> StoreError? {
        let folder = try TemporaryFolder()
        let path = folder.path("c.store")
        do {
            _ = try SyncStore.create(at: path, model: ManagedModel(name: "C", versionName: "C 1", entities: entities), contentName: "C")
            return nil
        } catch let error as StoreError {
            #expect(!FileManager.default.fileExists(atPath: path), "nothing is left behind")
            return error
        }
    }

    @Test("entities, attributes and relationships whose SQL names differ only in case are refused, naming both")
    func caseOnlyDifferencesAreRefused() throws {
        let entities = try #require(try creationError([.init(name: "Task"), .init(name: "TASK")]))
        #expect(entities.reason == .unusableModel)
        #expect(entities.failureKind == .badInput)
        #expect(entities.message.contains("the table of entity TASK and the table of entity Task would be named e_TASK and e_Task, which differ only in case"), "\(entities.message)")

        let attributes = try #require(try creationError([.init(name: "A", attributes: [.init(name: "x", type: .string), .init(name: "X", type: .string)])]))
        #expect(attributes.message.contains("attribute A.x (a column of e_A) and attribute A.X (a column of e_A) would be named a_x and a_X"), "\(attributes.message)")

        let inherited = try #require(try creationError([
            .init(name: "A", attributes: [.init(name: "title", type: .string)]),
            .init(name: "B", parentName: "A", relationships: [.init(name: "Title", destination: "A", isOptional: true)]),
            .init(name: "C", parentName: "A", attributes: [.init(name: "TITLE", type: .string)]),
        ]))
        #expect(inherited.message.contains("attribute A.title (a column of e_A) and attribute C.TITLE (a column of e_A)"), "\(inherited.message)")
    }

    @Test("an entity named like the index of another entity's to-one relationship is refused")
    func entityNamedLikeAnIndexIsRefused() throws {
        let error = try #require(try creationError([
            .init(name: "A", relationships: [.init(name: "b", destination: "B", isOptional: true)]), .init(name: "B"), .init(name: "A_r_b"),
        ]))
        #expect(error.message.contains("the index of relationship A.b and the table of entity A_r_b would both be named e_A_r_b in SQLite")
                || error.message.contains("the table of entity A_r_b and the index of relationship A.b would both be named e_A_r_b in SQLite"),
                "\(error.message)")
    }

    @Test("two relationships whose join tables would share a name are refused")
    func joinTablesSharingANameAreRefused() throws {
        let error = try #require(try creationError([
            .init(name: "A", relationships: [.init(name: "b_c", destination: "T", isToMany: true, isOptional: true)]),
            .init(name: "A_b", relationships: [.init(name: "c", destination: "T", isToMany: true, isOptional: true)]),
            .init(name: "T"),
        ]))
        #expect(error.message.contains("the join table of relationship A.b_c and the join table of relationship A_b.c would both be named j_A_b_c in SQLite"),
                "\(error.message)")
        let target = try #require(try creationError([
            .init(name: "A", relationships: [
                .init(name: "b", destination: "T", isToMany: true, isOptional: true),
                .init(name: "b_target", destination: "T", isToMany: true, isOptional: true),
            ]),
            .init(name: "T"),
        ]))
        #expect(target.message.contains("would both be named j_A_b_target in SQLite"), "\(target.message)")
    }

    @Test("a many-to-many pair shares its one join table; that is not a collision")
    func manyToManyPairIsNotACollision() throws {
        #expect(try creationError([
            .init(name: "A", relationships: [.init(name: "bs", destination: "B", inverseName: "as", isToMany: true, isOptional: true)]),
            .init(name: "B", relationships: [.init(name: "as", destination: "A", inverseName: "bs", isToMany: true, isOptional: true)]),
        ]) == nil)
        #expect(StoreLayout(model: TestModels.workspace()).nameCollisions().isEmpty)
    }

    @Test("names that differ only in the case of non-ASCII letters are refused too (GRDB finds columns ignoring case)")
    func nonASCIICaseIsRefused() throws {
        let error = try #require(try creationError([
            .init(name: "Été", attributes: [.init(name: "é", type: .string, isOptional: true), .init(name: "É", type: .string, isOptional: true)]),
        ]))
        #expect(error.message.contains("attribute Été.é (a column of e_Été) and attribute Été.É (a column of e_Été) would be named a_é and a_É, which differ only in case"),
                "\(error.message)")
    }

    @Test("distinct non-ASCII names make a store that holds each value under its own name")
    func distinctNonASCIINamesWork() throws {
        let folder = try TemporaryFolder()
        let model = ManagedModel(name: "U", versionName: "U 1", entities: [
            .init(name: "Été", attributes: [.init(name: "é", type: .string, isOptional: true), .init(name: "名前", type: .string, isOptional: true)]),
        ])
        let store = try SyncStore.create(at: folder.path("u.store"), model: model, contentName: "U")
        let id = try store.save(author: "test") { tx in try tx.insert("Été", values: ["é": .string("accent"), "名前": .string("name")]) }
        #expect(try store.record(id)?.values["é"] == .string("accent"))
        #expect(try store.record(id)?.values["名前"] == .string("name"))
    }

    @Test("a store whose sk_model holds a name with a NUL is damaged, not opened")
    func storedModelWithNulIsDamaged() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("n.store")
        _ = try SyncStore.create(at: path, model: ManagedModel(name: "N", versionName: "N 1", entities: [.init(name: "Task")]), contentName: "N")
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: #"UPDATE sk_model SET definition = replace(definition, '"name":"Task"', '"name":"Ta\u0000sk"')"#)
        }
        let error = #expect(throws: StoreError.self) { try SyncStore.open(at: path, readOnly: true) }
        #expect(error?.reason == .damaged)
        #expect(error?.message.contains("Ta\\0sk") == true, "\(error?.message ?? "")")
    }
}
