import Foundation
import ObjectModel
import Yams

/// A seed set: a named, versioned list of records an app seeds once per peer per account
/// (`docs/seeding.md`). Read from YAML; comments allowed.
///
/// ```yaml
/// seedSet: speechtimer-builtin
/// version: 2
/// records:
///   - entity: SpeechType
///     values: {name: Toast, greenSeconds: 60, yellowSeconds: 90, redSeconds: 120}
/// ```
public struct SeedSet: Sendable {
    /// One record of the set.
    public struct Entry: Sendable {
        /// The exact entity.
        public var entity: String
        /// The values, as written (converted to the attributes' types when the set is applied).
        var values: [String: JSONValue]
        /// To-one relationships, each naming its target by the values of the target's seed key
        /// (`toOne: {county: {name: Kent}}`), as written.
        var toOne: [String: [String: JSONValue]] = [:]
        /// The line it starts on.
        public var line: Int
    }

    /// The file.
    public let path: String
    /// The set's name (its seed records carry it in their seed mark).
    public let name: String
    /// The set's version: a newer one adds records and refreshes the ones nobody touched.
    public let version: Int
    /// The records.
    public let records: [Entry]
    /// The SHA-256 of the file.
    public let checksum: String

    /// Reads a seed set file.
    ///
    /// - Throws: ``SeedSetError`` naming the file and line.
    public init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SeedSetError(path: path, line: nil, problem: "cannot be read (no such file, or no permission)", failureKind: .missingInput)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw SeedSetError(path: path, line: nil, problem: "is not UTF-8 text") }
        checksum = SHA256.hexDigest(of: data)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw SeedSetError(path: path, line: 1, problem: "is empty") }
            root = node
        } catch let error as SeedSetError {
            throw error
        } catch let error as YamlError {
            throw SeedSetError(path: path, line: error.line, problem: "is not valid YAML: \(error.problemText)")
        } catch {
            throw SeedSetError(path: path, line: nil, problem: "is not valid YAML: \(error)")
        }
        func fail(_ node: Node?, _ problem: String) -> SeedSetError { SeedSetError(path: path, line: node?.mark?.line ?? root.mark?.line, problem: problem) }
        guard case .mapping(let top) = root else { throw fail(root, "must be a mapping with seedSet, version and records") }
        var fields: [String: Node] = [:]
        for (key, value) in top {
            guard let name = key.string, ["seedSet", "version", "records"].contains(name) else {
                throw fail(key, "unknown key '\(key.string ?? "?")'; known keys: records, seedSet, version")
            }
            fields[name] = value
        }
        guard let name = fields["seedSet"]?.string, !name.isEmpty else { throw fail(fields["seedSet"], "'seedSet' (the set's name) is missing") }
        guard let version = fields["version"]?.int, version >= 1 else { throw fail(fields["version"], "'version' must be a whole number from 1") }
        guard let list = fields["records"], case .sequence(let items) = list else { throw fail(fields["records"], "'records' must be a list") }
        self.name = name
        self.version = version
        records = try items.map { item in
            guard case .mapping(let pairs) = item else { throw fail(item, "a record must be a mapping with entity and values") }
            var entity: String?
            var values: [String: JSONValue] = [:]
            var toOne: [String: [String: JSONValue]] = [:]
            for (key, value) in pairs {
                switch key.string {
                case "entity": entity = value.string
                case "values":
                    values = try Self.values(value, what: "values must be a mapping of attribute names to values", fail: fail)
                case "toOne":
                    guard case .mapping(let relationships) = value else { throw fail(value, "toOne must be a mapping of relationship names to the target's seed key values") }
                    for (relationship, target) in relationships {
                        guard let name = relationship.string else { throw fail(relationship, "a relationship name is not text") }
                        toOne[name] = try Self.values(target, what: "the target of \(name) must be a mapping of its seed key's attributes to values, e.g. {name: Kent}", fail: fail)
                    }
                default:
                    throw fail(key, "unknown key '\(key.string ?? "?")' in a record; known keys: entity, toOne, values")
                }
            }
            guard let entity, !entity.isEmpty else { throw fail(item, "a record has no 'entity'") }
            return Entry(entity: entity, values: values, toOne: toOne, line: item.mark?.line ?? 0)
        }
    }

    /// A mapping of names to scalar values.
    private static func values(_ node: Node, what: String, fail: (Node?, String) -> SeedSetError) throws -> [String: JSONValue] {
        guard case .mapping(let pairs) = node else { throw fail(node, what) }
        var values: [String: JSONValue] = [:]
        for (name, scalar) in pairs {
            guard let text = name.string else { throw fail(name, "a name is not text") }
            values[text] = try json(scalar, fail: fail)
        }
        return values
    }

    /// A YAML scalar as the JSON value `apply` would read: quoted text stays text, plain scalars
    /// are numbers, booleans or null when they read as such.
    private static func json(_ node: Node, fail: (Node?, String) -> SeedSetError) throws -> JSONValue {
        guard case .scalar(let scalar) = node else { throw fail(node, "a value must be a single value, not a list or a mapping") }
        if scalar.style != .plain { return .string(scalar.string) }
        if node.null != nil { return .null }
        if let flag = node.bool, ["true", "false", "yes", "no", "True", "False", "Yes", "No", "TRUE", "FALSE", "YES", "NO"].contains(scalar.string) {
            return .bool(flag)
        }
        if let integer = Int64(scalar.string) { return .integer(integer) }
        if let number = Double(scalar.string), scalar.string.rangeOfCharacter(from: .decimalDigits) != nil { return .number(number) }
        return .string(scalar.string)
    }
}

/// A seed set file that cannot be used: which file, which line, what is wrong.
public struct SeedSetError: OperatorFacingError, Hashable {
    public var path: String
    public var line: Int?
    public var problem: String
    public var failureKind: FailureKind

    /// Creates the error.
    public init(path: String, line: Int?, problem: String, failureKind: FailureKind = .badInput) {
        self.path = path
        self.line = line
        self.problem = problem
        self.failureKind = failureKind
    }

    /// `<path>:<line>: <problem>`.
    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)" }

    /// What to do.
    public var hint: String? { failureKind == .missingInput ? "check the path" : "fix the seed set file (docs/seeding.md) and run the same command again; nothing was saved" }
}
