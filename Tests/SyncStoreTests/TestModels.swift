import Foundation
import ObjectModel

/// A model exercising inheritance and every way a relationship is stored.
enum TestModels {
    static func workspace(version: String = "Workspace 1", extraAttribute: Bool = false) -> ManagedModel {
        var item = EntityDescription(
            name: "Item", isAbstract: true,
            attributes: [.init(name: "title", type: .string), .init(name: "createdBy", type: .string, isOptional: true)],
            relationships: [.init(name: "tags", destination: "Tag", inverseName: "items", isToMany: true, isOptional: true)])
        if extraAttribute { item.attributes.append(.init(name: "rating", type: .integer16, isOptional: true)) }
        let note = EntityDescription(
            name: "Note", parentName: "Item",
            attributes: [.init(name: "body", type: .string, isOptional: true)])
        let task = EntityDescription(
            name: "Task", parentName: "Item",
            attributes: [
                .init(name: "done", type: .boolean, defaultValueString: "NO", defaultValue: .boolean(false)),
                .init(name: "priority", type: .integer16, defaultValueString: "0", defaultValue: .integer(0)),
                .init(name: "scratch", type: .string, isOptional: true, isTransient: true),
            ],
            relationships: [.init(name: "project", destination: "Project", inverseName: "tasks", isOptional: true)])
        let tag = EntityDescription(
            name: "Tag", attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "items", destination: "Item", inverseName: "tags", isToMany: true, isOptional: true)],
            uniquenessConstraints: [["name"]])
        let project = EntityDescription(
            name: "Project", attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "tasks", destination: "Task", inverseName: "project", isToMany: true, isOrdered: true,
                                  isOptional: true, deletionRule: .cascade)])
        let owner = EntityDescription(
            name: "Owner", attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "profile", destination: "Profile", inverseName: "owner", isOptional: true)])
        let profile = EntityDescription(
            name: "Profile", attributes: [.init(name: "bio", type: .string, isOptional: true)],
            relationships: [.init(name: "owner", destination: "Owner", inverseName: "profile", isOptional: true)])
        let folder = EntityDescription(
            name: "Folder", attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "notes", destination: "Note", isToMany: true, isOptional: true, deletionRule: .deny)])
        let attachment = EntityDescription(
            name: "Attachment",
            attributes: [
                .init(name: "data", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
                .init(name: "inlineData", type: .binary, isOptional: true),
            ],
            relationships: [.init(name: "note", destination: "Note", isOptional: true)])
        let kinds = EntityDescription(
            name: "Kinds",
            attributes: [
                .init(name: "i16", type: .integer16, isOptional: true), .init(name: "i32", type: .integer32, isOptional: true),
                .init(name: "i64", type: .integer64, isOptional: true), .init(name: "dec", type: .decimal, isOptional: true),
                .init(name: "dbl", type: .double, isOptional: true), .init(name: "flt", type: .float, isOptional: true),
                .init(name: "str", type: .string, isOptional: true), .init(name: "flag", type: .boolean, isOptional: true),
                .init(name: "when", type: .date, isOptional: true), .init(name: "bytes", type: .binary, isOptional: true),
                .init(name: "uid", type: .uuid, isOptional: true), .init(name: "link", type: .uri, isOptional: true),
            ])
        let settings = EntityDescription(
            name: "Settings", attributes: [.init(name: "theme", type: .string, defaultValueString: "classic", defaultValue: .string("classic"))],
            facts: StorekeepFacts(isSingleton: true))
        let speechType = EntityDescription(
            name: "SpeechType", attributes: [.init(name: "name", type: .string), .init(name: "greenSeconds", type: .double)],
            facts: StorekeepFacts(seedKey: ["name"]))
        return ManagedModel(name: "Workspace", versionName: version,
                            entities: [item, note, task, tag, project, owner, profile, folder, attachment, kinds, settings, speechType])
    }
}

/// A fresh temporary folder, removed when the value is released.
final class TemporaryFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storekeep-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}
