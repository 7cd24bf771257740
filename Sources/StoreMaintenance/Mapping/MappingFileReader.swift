import Foundation
import ObjectModel
import Yams

/// Reads a mapping file (YAML, comments allowed) into a ``MigrationMapping``, refusing unknown keys.
public enum MappingFileReader {
    /// Reads and checks the structure of the mapping file at `path` (not yet against a model or source).
    ///
    /// - Throws: ``MappingError`` naming the file and line.
    public static func read(path: String) throws -> MigrationMapping {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MappingError(path: path, problem: "cannot read the mapping file", hint: "check the path", failureKind: .missingInput)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MappingError(path: path, problem: "the mapping file is not UTF-8 text")
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw MappingError(path: path, line: 1, problem: "the mapping file is empty") }
            root = node
        } catch let error as MappingError {
            throw error
        } catch let error as YamlError {
            throw MappingError(path: path, line: error.line, problem: "malformed YAML: \(error.problemText)")
        } catch {
            throw MappingError(path: path, problem: "malformed YAML: \(error)")
        }
        let reader = NodeReader(path: path)
        let top = try reader.mapping(root, allowed: ["mapping", "model", "modelVersion", "source", "entities"], what: "the mapping file")
        let name = try reader.requiredString(top["mapping"], what: "mapping (its name)", at: root)
        let model = try reader.requiredString(top["model"], what: "model", at: root)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let modelPath = model.hasPrefix("/") ? model : folder.appendingPathComponent(model).standardizedFileURL.path
        var checks: [String: String] = [:]
        if let sourceNode = top["source"] {
            let source = try reader.mapping(sourceNode, allowed: ["format", "check"], what: "source")
            if let format = try reader.string(source["format"], required: false, what: "source.format", at: sourceNode), format != "plist" {
                throw MappingError(path: path, line: sourceNode.mark?.line, problem: "source.format '\(format)' is not supported; mapping files describe property lists (format: plist)")
            }
            if let checkNode = source["check"] {
                for (key, value) in try reader.pairs(checkNode, what: "source.check") {
                    checks[key] = try reader.requiredString(value, what: "source.check.\(key)", at: checkNode)
                }
            }
        }
        guard let entitiesNode = top["entities"], case .sequence(let entityList) = entitiesNode, !entityList.isEmpty else {
            throw MappingError(path: path, line: top["entities"]?.mark?.line ?? root.mark?.line, problem: "'entities' must be a non-empty list")
        }
        let entities = try entityList.map { try reader.entity($0) }
        return MigrationMapping(
            path: path, checksum: SHA256.hexDigest(of: data), name: name, modelPath: modelPath,
            modelVersion: try reader.string(top["modelVersion"], required: false, what: "modelVersion", at: root),
            checks: checks, entities: entities, modelLine: top["model"]?.mark?.line, modelVersionLine: top["modelVersion"]?.mark?.line)
    }
}
