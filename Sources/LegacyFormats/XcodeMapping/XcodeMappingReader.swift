import Foundation
import ObjectModel

/// Reads Xcode mapping models: an `.xcmappingmodel` folder's `xcmapping.xml`, a Core Data XML store
/// of one `XDDEVMAPPINGMODEL` object (source and destination model paths), its entity mappings and
/// their attribute and relationship mappings, with value expressions archived as `NSExpression`s.
///
/// Only what the mapping model object lists is read: Xcode leaves entity mappings of earlier edits
/// in the file, unattached, and Core Data ignores them too.
///
/// ```swift
/// let mapping = try XcodeMappingReader().read(at: URL(fileURLWithPath: "Migration2to3.xcmappingmodel"))
/// mapping.entityMapping(named: "PostToPost")?.migrationPolicyClass   // "App.Post2ToPost3MigrationPolicy"
/// ```
public struct XcodeMappingReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Reads the mapping model at `url`: an `.xcmappingmodel` folder or its `xcmapping.xml`.
    ///
    /// - Throws: ``XcodeMappingError``: `.missingInput` for a path that does not exist or cannot be
    ///   read; `.badInput` for malformed XML, a file over the size limit, or a store that is not a
    ///   mapping model (no mapping model object, no model paths, a reference to nothing, two entity
    ///   mappings with one name).
    public func read(at url: URL) throws(XcodeMappingError) -> XcodeMappingModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw XcodeMappingError(path: url.path, problem: "no such file or folder",
                                    hint: "give the path of an .xcmappingmodel folder", failureKind: .missingInput)
        }
        let file = isDirectory.boolValue ? url.appendingPathComponent("xcmapping.xml") : url
        let folder = isDirectory.boolValue ? url : url.deletingLastPathComponent()
        let data = try Self.contents(of: file)
        let objects = try CoreDataXMLStoreParser.parse(data, path: file.path)
        return try Self.mappingModel(from: objects, path: folder.path, file: file.path, checksum: SHA256.hexDigest(of: data))
    }

    /// Every `.xcmappingmodel` folder in `folder` and its sub-folders (at most `depth` levels down,
    /// hidden folders and model bundles skipped, and no more than `maximumFolders` folders looked
    /// into, so that a bundle kept in a large folder does not start a long walk), sorted by path.
    public static func mappingModels(in folder: URL, depth: Int = 3, maximumFolders: Int = 2_000) -> [URL] {
        var found: [URL] = []
        var visited = 0
        func walk(_ current: URL, _ level: Int) {
            visited += 1
            guard visited <= maximumFolders else { return }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: current.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = current.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                switch child.pathExtension {
                case "xcmappingmodel": found.append(child)
                case "xcdatamodeld", "xcdatamodel": continue
                default: if level < depth { walk(child, level + 1) }
                }
            }
        }
        walk(folder, 0)
        return found
    }

    private static func contents(of file: URL) throws(XcodeMappingError) -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
        if let size, size > CoreDataXMLStoreParser.maximumFileSize {
            throw XcodeMappingError(path: file.path,
                                    problem: "the mapping file is \(size) bytes; mapping files over \(CoreDataXMLStoreParser.maximumFileSize) bytes are refused",
                                    hint: "real mapping models are under a megabyte; check that this is the right file")
        }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw XcodeMappingError(path: file.path, problem: "cannot read the mapping file",
                                    hint: "an .xcmappingmodel folder holds a readable xcmapping.xml", failureKind: .missingInput)
        }
    }

    private static func mappingModel(from objects: [CoreDataXMLStoreObject], path: String, file: String,
                                     checksum: String) throws(XcodeMappingError) -> XcodeMappingModel {
        let byID = Dictionary(objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let models = objects.filter { $0.type == "XDDEVMAPPINGMODEL" }
        guard models.count == 1, let model = models.first else {
            throw XcodeMappingError(path: file, problem: models.isEmpty ? "the file holds no mapping model object"
                                        : "the file holds \(models.count) mapping model objects",
                                    hint: "re-save the mapping model in Xcode")
        }
        guard let sourcePath = nonEmpty(model.attributes["sourcemodelpath"]),
              let destinationPath = nonEmpty(model.attributes["destinationmodelpath"]) else {
            throw XcodeMappingError(path: file, problem: "the mapping model does not name its source and destination model versions",
                                    hint: "choose the source and destination models in Xcode's mapping model editor")
        }
        let source = URL(fileURLWithPath: sourcePath)
        let destination = URL(fileURLWithPath: destinationPath)
        let bundle = source.deletingLastPathComponent()
        var entityMappings: [XcodeEntityMapping] = []
        var names = Set<String>()
        for id in model.relationships["entitymappings"] ?? [] {
            guard let object = byID[id], object.type == "XDDEVENTITYMAPPING" else {
                throw XcodeMappingError(path: file, problem: "the mapping model lists entity mapping \(id), which the file does not hold",
                                        hint: "re-save the mapping model in Xcode")
            }
            let mapping = try entityMapping(object, byID: byID, file: file)
            guard names.insert(mapping.name).inserted else {
                throw XcodeMappingError(path: file, problem: "two entity mappings are named \(mapping.name)",
                                        hint: "rename one in Xcode's mapping model editor")
            }
            entityMappings.append(mapping)
        }
        entityMappings.sort { ($0.order, $0.name) < ($1.order, $1.name) }
        return XcodeMappingModel(
            path: path, checksum: checksum, sourceVersion: source.deletingPathExtension().lastPathComponent,
            destinationVersion: destination.deletingPathExtension().lastPathComponent,
            modelName: bundle.pathExtension == "xcdatamodeld" ? bundle.deletingPathExtension().lastPathComponent : nil,
            entityMappings: entityMappings)
    }

    private static func entityMapping(_ object: CoreDataXMLStoreObject, byID: [String: CoreDataXMLStoreObject],
                                      file: String) throws(XcodeMappingError) -> XcodeEntityMapping {
        let source = nonEmpty(object.attributes["sourcename"])
        let destination = nonEmpty(object.attributes["destinationname"])
        let name = nonEmpty(object.attributes["name"])
            ?? (source.flatMap { source in destination.map { "\(source)To\($0)" } } ?? destination ?? source ?? object.id)
        let kind: XcodeEntityMapping.Kind
        switch object.attributes["mappingtypename"]?.lowercased() {
        case "add": kind = .add
        case "remove": kind = .remove
        default: kind = source == nil ? .add : (destination == nil ? .remove : .mapped)
        }
        let sourceExpression = nonEmpty(object.attributes["sourceexpressiondata"]).map(expression)
        return XcodeEntityMapping(
            name: name, sourceEntity: source, destinationEntity: destination, kind: kind,
            migrationPolicyClass: nonEmpty(object.attributes["migrationpolicyclassname"]),
            sourceExpression: sourceExpression.flatMap { isDefaultFetch($0, of: source) ? nil : $0 },
            attributeMappings: try propertyMappings(object.relationships["attributemappings"] ?? [], byID: byID, type: "XDDEVATTRIBUTEMAPPING", file: file),
            relationshipMappings: try propertyMappings(object.relationships["relationshipmappings"] ?? [], byID: byID,
                                                       type: "XDDEVRELATIONSHIPMAPPING", file: file),
            order: Int(object.attributes["mappingnumber"]?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
    }

    private static func propertyMappings(_ ids: [String], byID: [String: CoreDataXMLStoreObject], type: String,
                                         file: String) throws(XcodeMappingError) -> [XcodePropertyMapping] {
        var mappings: [XcodePropertyMapping] = []
        for id in ids {
            guard let object = byID[id], object.type == type, let name = nonEmpty(object.attributes["name"]) else {
                throw XcodeMappingError(path: file, problem: "an entity mapping lists property mapping \(id), which the file does not hold (or has no name)",
                                        hint: "re-save the mapping model in Xcode")
            }
            mappings.append(XcodePropertyMapping(
                name: name, storedExpression: nonEmpty(object.attributes["valueexpressiondata"]).map(expression),
                autogenerates: flag(object.attributes["autogenerateexpression"]),
                sourceKeyPath: nonEmpty(object.attributes["sourcekeypath"]),
                sourceMappingName: nonEmpty(object.attributes["sourcemappingname"])))
        }
        return mappings.sorted { $0.name < $1.name }
    }

    /// A base64 `NSExpression` archive, decoded.
    private static func expression(_ base64: String) -> MappingExpression {
        guard let data = Data(base64Encoded: base64.filter { !$0.isWhitespace }) else {
            return .unsupported("an expression that is not base64 data")
        }
        return ExpressionArchiveDecoder.decode(data)
    }

    /// Xcode's default source expression: every record of the source entity.
    private static func isDefaultFetch(_ expression: MappingExpression, of source: String?) -> Bool {
        let text = expression.text
        return text.contains("fetchRequestForSourceEntityNamed:predicateString:") && text.contains("\"TRUEPREDICATE\"")
            && source.map { text.contains("\"\($0)\"") } != false
    }

    private static func flag(_ value: String?) -> Bool {
        guard let value = value?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return value == "1" || value == "yes" || value == "true"
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : value
    }
}
