import Foundation
import ObjectModel
import SyncStore

/// A small model with every repair policy, for the repair tests.
///
/// - `Category` (seed key `name`, policy keep): to-many `items` → `Item`.
/// - `Item` (policy **delete**): `title` required, `priority` 0…10; to-one `category`.
/// - `Note` (policy keep): `text` required; to-one `item` (no inverse).
/// - `Preferences` (singleton): `theme`; to-many `favorites` → `Item` (no inverse, a join table).
/// - `Person` (policy keep) ↔ `Badge` (policy **nullify**): one-to-one `badge` / `holder`.
/// - `Attachment`: `data` Binary with external storage.
enum RepairModel {
    static func model() -> ManagedModel {
        ManagedModel(name: "Repairs", versionName: "Repairs 1", entities: [
            EntityDescription(name: "Category", attributes: [
                .init(name: "name", type: .string), .init(name: "color", type: .string, isOptional: true),
            ], relationships: [
                .init(name: "items", destination: "Item", inverseName: "category", isToMany: true, isOptional: true, deletionRule: .deny),
            ], facts: StorekeepFacts(seedKey: ["name"])),
            EntityDescription(name: "Item", attributes: [
                .init(name: "title", type: .string),
                .init(name: "priority", type: .integer16, isOptional: true, minValueString: "0", maxValueString: "10"),
            ], relationships: [
                .init(name: "category", destination: "Category", inverseName: "items", isOptional: true),
            ], facts: StorekeepFacts(invalidRecordPolicy: .delete)),
            EntityDescription(name: "Note", attributes: [.init(name: "text", type: .string)], relationships: [
                .init(name: "item", destination: "Item", isOptional: true),
            ]),
            EntityDescription(name: "Preferences", attributes: [.init(name: "theme", type: .string, isOptional: true)], relationships: [
                .init(name: "favorites", destination: "Item", isToMany: true, isOptional: true),
            ], facts: StorekeepFacts(isSingleton: true)),
            EntityDescription(name: "Person", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "badge", destination: "Badge", inverseName: "holder", isOptional: true),
            ]),
            EntityDescription(name: "Badge", attributes: [.init(name: "number", type: .integer32)], relationships: [
                .init(name: "holder", destination: "Person", inverseName: "badge", isOptional: true),
            ], facts: StorekeepFacts(invalidRecordPolicy: .nullify)),
            EntityDescription(name: "Attachment", attributes: [
                .init(name: "data", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            ]),
        ])
    }

    /// A fresh store of the model in `folder`.
    static func store(in folder: URL, name: String = "r.store") throws -> SyncStore {
        try SyncStore.create(at: folder.appendingPathComponent(name).path, model: model(), contentName: "Repairs")
    }
}
