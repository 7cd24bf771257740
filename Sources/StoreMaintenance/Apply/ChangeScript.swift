import Foundation
import SyncStore

/// A change file for `storekeep apply`: one JSON object per line, each an operation on the store
/// (`docs/cli.md`, "apply"). Blank lines and lines starting with `#` are skipped.
///
/// ```
/// {"op":"insert","entity":"SpeechType","id":"T1","values":{"name":"Toast","greenSeconds":60}}
/// {"op":"update","record":{"entity":"SpeechType","key":{"name":"Toast"}},"values":{"greenSeconds":90}}
/// {"op":"add","record":"S1","relationship":"tags","members":["T1"]}
/// {"op":"delete","record":"T1"}
/// ```
public struct ChangeScript: Sendable {
    /// How a line names a record.
    enum Reference: Hashable, Sendable {
        /// By global ID.
        case id(GlobalID)
        /// By the values of the entity's seed key or of one of its uniqueness constraints.
        case key(entity: String, values: [String: JSONValue])
    }

    /// What one line does.
    enum Operation: Sendable {
        case insert(entity: String, id: GlobalID?, values: [String: JSONValue], toOne: [String: Reference?], toMany: [String: [Reference]], seed: SeedMark?)
        case update(record: Reference, values: [String: JSONValue], toOne: [String: Reference?], toMany: [String: [Reference]])
        case delete(record: Reference)
        case add(record: Reference, relationship: String, members: [Reference])
        case remove(record: Reference, relationship: String, members: [Reference])
    }

    /// One line.
    struct Line: Sendable {
        let number: Int
        let operation: Operation
    }

    /// The file read.
    public let path: String
    let lines: [Line]

    /// The number of operations.
    public var count: Int { lines.count }

    /// Reads and parses the whole file.
    ///
    /// - Throws: ``ChangeScriptError`` for a missing file or a line that is not a valid operation.
    public init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            var error = ChangeScriptError(path: path, line: nil, message: "cannot be read (no such file, or no permission)", hint: "check the path")
            error.isMissing = true
            throw error
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ChangeScriptError(path: path, line: nil, message: "is not UTF-8 text")
        }
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let number = index + 1
            let object: [String: JSONValue]
            do {
                object = try JSONDecoder().decode([String: JSONValue].self, from: Data(trimmed.utf8))
            } catch {
                throw ChangeScriptError(path: path, line: number, message: "is not a JSON object on one line")
            }
            lines.append(Line(number: number, operation: try Self.operation(object, path: path, line: number)))
        }
        self.lines = lines
    }

    private static func operation(_ object: [String: JSONValue], path: String, line: Int) throws -> Operation {
        func fail(_ message: String) -> ChangeScriptError { ChangeScriptError(path: path, line: line, message: message) }
        func string(_ key: String) throws -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw fail("\"\(key)\" must be a string, not \(other.typeName)")
            }
        }
        func fields(_ key: String) throws -> [String: JSONValue] {
            switch object[key] {
            case nil: return [:]
            case .object(let fields)?: return fields
            case let other?: throw fail("\"\(key)\" must be an object, not \(other.typeName)")
            }
        }
        func reference(_ value: JSONValue, what: String) throws -> Reference {
            switch value {
            case .string(let id) where !id.isEmpty: return .id(GlobalID(id))
            case .object(let fields):
                if case .string(let id)? = fields["id"] { return .id(GlobalID(id)) }
                if case .string(let entity)? = fields["entity"], case .object(let key)? = fields["key"], !key.isEmpty {
                    return .key(entity: entity, values: key)
                }
                throw fail("\(what) must name a record as \"<global ID>\", {\"id\": …} or {\"entity\": …, \"key\": {…}}")
            default:
                throw fail("\(what) must name a record as \"<global ID>\", {\"id\": …} or {\"entity\": …, \"key\": {…}}")
            }
        }
        func record() throws -> Reference {
            guard let value = object["record"] else { throw fail("\"record\" is missing: which record does the line change?") }
            return try reference(value, what: "\"record\"")
        }
        func toOne() throws -> [String: Reference?] {
            var result: [String: Reference?] = [:]
            for (name, value) in try fields("toOne") {
                result[name] = value == .null ? .some(nil) : try reference(value, what: "toOne \"\(name)\"")
            }
            return result
        }
        func list(_ value: JSONValue?, what: String) throws -> [Reference] {
            guard case .array(let items)? = value else { throw fail("\(what) must be an array of records") }
            return try items.map { try reference($0, what: what) }
        }
        func toMany() throws -> [String: [Reference]] {
            var result: [String: [Reference]] = [:]
            for (name, value) in try fields("toMany") { result[name] = try list(value, what: "toMany \"\(name)\"") }
            return result
        }
        let known: Set<String>
        let operation: Operation
        switch try string("op") {
        case "insert"?:
            known = ["op", "entity", "id", "values", "toOne", "toMany", "seed"]
            guard let entity = try string("entity") else { throw fail("an insert needs \"entity\"") }
            var seed: SeedMark?
            if let fields = try? fields("seed"), !fields.isEmpty {
                guard case .string(let set)? = fields["set"], case .integer(let version)? = fields["version"], version >= 0, version <= Int64(Int32.max) else {
                    throw fail("\"seed\" must be {\"set\": \"<name>\", \"version\": <whole number>}")
                }
                seed = SeedMark(set: set, version: Int(version))
            }
            operation = .insert(entity: entity, id: try string("id").map(GlobalID.init), values: try fields("values"),
                                toOne: try toOne(), toMany: try toMany(), seed: seed)
        case "update"?:
            known = ["op", "record", "values", "toOne", "toMany"]
            operation = .update(record: try record(), values: try fields("values"), toOne: try toOne(), toMany: try toMany())
        case "delete"?:
            known = ["op", "record"]
            operation = .delete(record: try record())
        case let op? where op == "add" || op == "remove":
            known = ["op", "record", "relationship", "members"]
            guard let relationship = try string("relationship") else { throw fail("\"\(op)\" needs \"relationship\"") }
            let members = try list(object["members"], what: "\"members\"")
            operation = op == "add" ? .add(record: try record(), relationship: relationship, members: members)
                : .remove(record: try record(), relationship: relationship, members: members)
        case let op?:
            throw fail("unknown op \"\(op)\"; use insert, update, delete, add or remove")
        case nil:
            throw fail("\"op\" is missing; use insert, update, delete, add or remove")
        }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("unknown field \"\(unknown)\" for this op (a typo would otherwise be ignored)")
        }
        return operation
    }
}
