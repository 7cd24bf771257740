import Foundation
import ObjectModel
import Yams

/// Reads a step file (YAML, comments allowed) into a ``StepFile``, refusing unknown keys.
public enum StepFileReader {
    /// Reads and checks the structure of the step file at `path` (not yet against the model versions).
    ///
    /// - Throws: ``StepFileError`` naming the file and line.
    public static func read(path: String) throws -> StepFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StepFileError(path: path, problem: "cannot read the step file", hint: "check the path and permissions", failureKind: .missingInput)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw StepFileError(path: path, problem: "the step file is not UTF-8 text")
        }
        do {
            let root: Node
            do {
                guard let node = try Yams.compose(yaml: text) else { throw StepFileError(path: path, line: 1, problem: "the step file is empty") }
                root = node
            } catch let error as YamlError {
                throw StepFileError(path: path, line: error.line, problem: "malformed YAML: \(error.problemText)")
            }
            return try parse(root, path: path, checksum: SHA256.hexDigest(of: data))
        } catch let error as MappingError {
            throw StepFileError(path: error.path, line: error.line, problem: error.problem)
        }
    }

    private static func parse(_ root: Node, path: String, checksum: String) throws -> StepFile {
        let reader = NodeReader(path: path)
        let top = try reader.mapping(root, allowed: ["from", "to", "entities"], what: "the step file")
        let from = try reader.requiredString(top["from"], what: "from (the previous model version)", at: root)
        let to = try reader.requiredString(top["to"], what: "to (the next model version)", at: root)
        var entities: [StepFile.EntityRule] = []
        if let list = top["entities"] {
            guard case .sequence(let blocks) = list else {
                throw StepFileError(path: path, line: list.mark?.line, problem: "'entities' must be a list of entity blocks")
            }
            entities = try blocks.map { try entity($0, reader: reader) }
        }
        return StepFile(path: path, checksum: checksum, from: from, to: to, line: top["from"]?.mark?.line ?? 1, entities: entities)
    }

    private static func entity(_ node: Node, reader: NodeReader) throws -> StepFile.EntityRule {
        let line = node.mark?.line ?? 0
        let fields = try reader.mapping(node, allowed: ["entity", "from", "drop", "attributes", "relationships"], what: "an entity block")
        let entity = try reader.string(fields["entity"], required: false, what: "entity", at: node)
        let from = try reader.string(fields["from"], required: false, what: "from", at: node)
        let drop = try flag(fields["drop"], reader: reader, what: "drop", at: node)
        let name = entity ?? from ?? "?"
        if drop {
            guard entity == nil, from != nil, fields["attributes"] == nil, fields["relationships"] == nil else {
                throw StepFileError(path: reader.path, line: line,
                                    problem: "a block with 'drop: true' names only the previous version's entity ('from: Entity')")
            }
        } else if entity == nil {
            throw StepFileError(path: reader.path, line: line, problem: "an entity block needs 'entity' (the next version's entity), or 'from' with 'drop: true'")
        }
        var attributes: [StepFile.AttributeRule] = []
        if let attributeNode = fields["attributes"] {
            for (attribute, value) in try reader.pairs(attributeNode, what: "attributes of \(name)") {
                attributes.append(try attributeRule(attribute, value, entity: name, reader: reader, line: value.mark?.line ?? line))
            }
        }
        var relationships: [StepFile.RelationshipRule] = []
        if let relationshipNode = fields["relationships"] {
            for (relationship, value) in try reader.pairs(relationshipNode, what: "relationships of \(name)") {
                let valueLine = value.mark?.line ?? line
                if case .scalar(let scalar) = value {
                    relationships.append(.init(relationship: relationship, from: scalar.string, drop: false, line: valueLine))
                    continue
                }
                let rule = try reader.mapping(value, allowed: ["from", "drop"], what: "relationship \(name).\(relationship)")
                let ruleDrop = try flag(rule["drop"], reader: reader, what: "\(name).\(relationship).drop", at: value)
                let ruleFrom = try reader.string(rule["from"], required: false, what: "\(name).\(relationship).from", at: value)
                if ruleDrop && ruleFrom != nil {
                    throw StepFileError(path: reader.path, line: valueLine, problem: "\(name).\(relationship): 'drop' and 'from' exclude each other")
                }
                relationships.append(.init(relationship: relationship, from: ruleFrom, drop: ruleDrop, line: valueLine))
            }
        }
        return .init(entity: entity, from: from, drop: drop, attributes: attributes, relationships: relationships, line: line)
    }

    private static func attributeRule(_ attribute: String, _ value: Node, entity: String, reader: NodeReader, line: Int) throws -> StepFile.AttributeRule {
        if case .scalar(let scalar) = value {
            return .init(attribute: attribute, from: scalar.string, conversion: nil, value: nil, valueForEmpty: nil, drop: false, line: line)
        }
        let what = "\(entity).\(attribute)"
        let rule = try reader.mapping(value, allowed: ["from", "convert", "value", "default", "drop", "generate"], what: "attribute \(what)")
        var conversion: ValueConversion?
        if let text = try reader.string(rule["convert"], required: false, what: "\(what).convert", at: value) {
            guard let declared = ValueConversion(rawValue: text), ValueConversion.declarable.contains(declared) else {
                throw StepFileError(path: reader.path, line: rule["convert"]?.mark?.line ?? line,
                                    problem: "unknown conversion '\(text)' for \(what); known: \(ValueConversion.declarable.map(\.rawValue).joined(separator: ", "))")
            }
            conversion = declared
        }
        var generator: ValueGenerator?
        if let text = try reader.string(rule["generate"], required: false, what: "\(what).generate", at: value) {
            guard let known = ValueGenerator(rawValue: text) else {
                throw StepFileError(path: reader.path, line: rule["generate"]?.mark?.line ?? line,
                                    problem: "unknown generator '\(text)' for \(what); known: \(ValueGenerator.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            generator = known
        }
        var parsed = StepFile.AttributeRule(
            attribute: attribute, from: try reader.string(rule["from"], required: false, what: "\(what).from", at: value),
            conversion: conversion, value: try reader.string(rule["value"], required: false, what: "\(what).value", at: value),
            valueForEmpty: try reader.string(rule["default"], required: false, what: "\(what).default", at: value),
            drop: try flag(rule["drop"], reader: reader, what: "\(what).drop", at: value), line: line)
        parsed.generator = generator
        if parsed.value != nil && (parsed.from != nil || parsed.conversion != nil || parsed.valueForEmpty != nil || parsed.drop || generator != nil) {
            throw StepFileError(path: reader.path, line: line, problem: "\(what): 'value' (a constant) goes alone, without from, convert, default, drop or generate")
        }
        if generator != nil && (parsed.from != nil || parsed.conversion != nil || parsed.valueForEmpty != nil || parsed.drop) {
            throw StepFileError(path: reader.path, line: line, problem: "\(what): 'generate' goes alone, without from, convert, default or drop")
        }
        if parsed.drop && (parsed.from != nil || parsed.conversion != nil || parsed.valueForEmpty != nil) {
            throw StepFileError(path: reader.path, line: line, problem: "\(what): 'drop' goes alone, without from, convert or default")
        }
        return parsed
    }

    private static func flag(_ node: Node?, reader: NodeReader, what: String, at parent: Node) throws -> Bool {
        guard let text = try reader.string(node, required: false, what: what, at: parent) else { return false }
        switch text.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw StepFileError(path: reader.path, line: node?.mark?.line, problem: "\(what) must be true or false, not '\(text)'")
        }
    }
}
