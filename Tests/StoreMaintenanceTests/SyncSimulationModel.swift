import Foundation
import ObjectModel

/// The model the sync simulation edits: every relationship shape, every repair policy, seeds,
/// a singleton and external blobs.
///
/// - `Category` (seed key `name`): to-many `items` → `Item` (deny).
/// - `Item` (policy delete: `title` required, `priority` 0…10): to-one `category`; many-to-many `tags`.
/// - `Tag`: `name`; many-to-many `items`.
/// - `Preferences` (singleton): `theme`; to-many `favorites` → `Item` without inverse (a join table).
/// - `Person` ↔ `Badge` (policy nullify): one-to-one.
/// - `Playlist`: ordered to-many `entries` → `Entry` (cascade), whose inverse `playlist` is to-one.
/// - `Attachment`: `data` Binary with external storage.
enum SyncSimulationModel {
    static func model() -> ManagedModel {
        ManagedModel(name: "Simulation", versionName: "Simulation 1", entities: [
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
                .init(name: "tags", destination: "Tag", inverseName: "items", isToMany: true, isOptional: true),
            ], facts: StorekeepFacts(invalidRecordPolicy: .delete)),
            EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "items", destination: "Item", inverseName: "tags", isToMany: true, isOptional: true),
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
            EntityDescription(name: "Playlist", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "entries", destination: "Entry", inverseName: "playlist", isToMany: true, isOrdered: true,
                      isOptional: true, deletionRule: .cascade),
            ]),
            EntityDescription(name: "Entry", attributes: [.init(name: "label", type: .string)], relationships: [
                .init(name: "playlist", destination: "Playlist", inverseName: "entries", isOptional: true),
            ]),
            EntityDescription(name: "Attachment", attributes: [
                .init(name: "data", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            ]),
        ])
    }
}
