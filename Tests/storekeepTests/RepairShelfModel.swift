import Foundation
import GRDB
import ObjectModel
import SyncStore

/// A small model for the end-to-end repair tests, with required relationships under each policy.
///
/// - `Shelf` (policy keep): to-many `books` → `Book`.
/// - `Book` (policy **delete**): `title` required; to-one `shelf`, **required**.
/// - `Note` (policy keep): to-one `book`, **required**, no inverse.
/// - `Author` (policy **delete**): `name` required; to-many `works` → `Work`, deletion rule **Deny**.
/// - `Work`: to-one `author`.
/// - `Attachment`: `data` Binary with external storage.
enum RepairShelfModel {
    static func model() -> ManagedModel {
        ManagedModel(name: "Shelves", versionName: "Shelves 1", entities: [
            EntityDescription(name: "Shelf", attributes: [.init(name: "label", type: .string, isOptional: true)], relationships: [
                .init(name: "books", destination: "Book", inverseName: "shelf", isToMany: true, isOptional: true),
            ]),
            EntityDescription(name: "Book", attributes: [.init(name: "title", type: .string)], relationships: [
                .init(name: "shelf", destination: "Shelf", inverseName: "books", isOptional: false),
            ], facts: StorekeepFacts(invalidRecordPolicy: .delete)),
            EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string, isOptional: true)], relationships: [
                .init(name: "book", destination: "Book", isOptional: false),
            ]),
            EntityDescription(name: "Author", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "works", destination: "Work", inverseName: "author", isToMany: true, isOptional: true, deletionRule: .deny),
            ], facts: StorekeepFacts(invalidRecordPolicy: .delete)),
            EntityDescription(name: "Work", attributes: [.init(name: "title", type: .string, isOptional: true)], relationships: [
                .init(name: "author", destination: "Author", inverseName: "works", isOptional: true),
            ]),
            EntityDescription(name: "Attachment", attributes: [
                .init(name: "data", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            ]),
        ])
    }

    /// A new store of the model at `path` (closed again when the returned store is released).
    static func store(at path: String) throws -> SyncStore {
        try SyncStore.create(at: path, model: model(), contentName: "Shelves")
    }

    /// Runs SQL on the store behind storekeep's back (to make the damage a test needs).
    static func raw(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: sql, arguments: arguments) }
        try queue.close()
    }
}
