import Yams

/// Reads the parts of a mapping file's YAML tree, with errors that name the line.
struct NodeReader {
    /// The mapping file, for messages.
    let path: String

    /// The node as a mapping with only `allowed` keys.
    func mapping(_ node: Node, allowed: Set<String>, what: String) throws -> [String: Node] {
        var result: [String: Node] = [:]
        for (key, value) in try pairs(node, what: what) {
            guard allowed.contains(key) else {
                throw MappingError(path: path, line: value.mark?.line ?? node.mark?.line,
                                   problem: "unknown key '\(key)' in \(what); known keys: \(allowed.sorted().joined(separator: ", "))")
            }
            result[key] = value
        }
        return result
    }

    /// The key/value pairs of a mapping node, in file order.
    func pairs(_ node: Node, what: String) throws -> [(String, Node)] {
        guard case .mapping(let mapping) = node else {
            throw MappingError(path: path, line: node.mark?.line, problem: "\(what) must be a mapping of keys to values")
        }
        return try mapping.map { key, value in
            guard let name = key.string else { throw MappingError(path: path, line: key.mark?.line, problem: "a key in \(what) is not text") }
            return (name, value)
        }
    }

    /// A scalar as text; `nil` when absent and not required.
    func string(_ node: Node?, required: Bool, what: String, at parent: Node) throws -> String? {
        guard let node else {
            if required { throw MappingError(path: path, line: parent.mark?.line, problem: "\(what) is missing") }
            return nil
        }
        guard case .scalar(let scalar) = node else {
            throw MappingError(path: path, line: node.mark?.line, problem: "\(what) must be a single value")
        }
        return scalar.string
    }

    /// The text of a scalar `node` that must be present (``string(_:required:what:at:)`` with `required`).
    func requiredString(_ node: Node?, what: String, at parent: Node) throws -> String {
        guard let text = try string(node, required: true, what: what, at: parent) else {
            throw MappingError(path: path, line: parent.mark?.line, problem: "\(what) is missing")
        }
        return text
    }

    /// A `true`/`false` scalar (also `yes`/`no`); `false` when absent.
    func flag(_ node: Node?, what: String) throws -> Bool {
        guard let node else { return false }
        switch try string(node, required: true, what: what, at: node)?.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw MappingError(path: path, line: node.mark?.line, problem: "\(what) must be true or false")
        }
    }

    /// One entry of the `entities` list.
    func entity(_ node: Node) throws -> MigrationMapping.EntityRule {
        let line = node.mark?.line ?? 0
        let fields = try mapping(node, allowed: ["entity", "from", "id", "seed", "attributes", "relationships"], what: "an entity block")
        let entity = try requiredString(fields["entity"], what: "entity", at: node)
        let from = try requiredString(fields["from"], what: "from (the source key path) of \(entity)", at: node)
        var identity = MigrationMapping.IdentityRule.position
        if let idNode = fields["id"] {
            switch idNode {
            case .scalar(let scalar):
                identity = scalar.string == "seedKey" ? .seedKey : (scalar.string == "position" ? .position : .key(scalar.string))
            default:
                throw MappingError(path: path, line: idNode.mark?.line, problem: "id of \(entity) must be a source key, 'seedKey' or 'position'")
            }
        }
        var seed: MigrationMapping.SeedRule?
        if let seedNode = fields["seed"] {
            let seedFields = try mapping(seedNode, allowed: ["set", "version", "when"], what: "seed of \(entity)")
            let set = try requiredString(seedFields["set"], what: "seed.set of \(entity)", at: seedNode)
            let versionText = try requiredString(seedFields["version"], what: "seed.version of \(entity)", at: seedNode)
            guard let version = Int(versionText) else {
                throw MappingError(path: path, line: seedFields["version"]?.mark?.line, problem: "seed.version of \(entity) must be a whole number")
            }
            seed = .init(set: set, version: version, when: try string(seedFields["when"], required: false, what: "seed.when", at: seedNode))
        }
        var attributes: [MigrationMapping.AttributeRule] = []
        if let attributeNode = fields["attributes"] {
            for (attribute, value) in try pairs(attributeNode, what: "attributes of \(entity)") {
                let what = "the source key of \(entity).\(attribute)"
                guard case .mapping = value else {
                    let key = try requiredString(value, what: what, at: attributeNode)
                    attributes.append(.init(attribute: attribute, key: key, line: value.mark?.line ?? line))
                    continue
                }
                // The long form: `{key: notes, optional: true}`.
                let fields = try mapping(value, allowed: ["key", "optional"], what: "attribute \(entity).\(attribute)")
                attributes.append(.init(attribute: attribute, key: try requiredString(fields["key"], what: what, at: value),
                                        line: value.mark?.line ?? line, isOptional: try flag(fields["optional"], what: "\(entity).\(attribute).optional")))
            }
        }
        var relationships: [MigrationMapping.RelationshipRule] = []
        if let relationshipNode = fields["relationships"] {
            for (name, value) in try pairs(relationshipNode, what: "relationships of \(entity)") {
                let rule = try mapping(value, allowed: ["entity", "match", "key", "optional"], what: "relationship \(entity).\(name)")
                relationships.append(.init(
                    relationship: name,
                    entity: try requiredString(rule["entity"], what: "\(entity).\(name).entity", at: value),
                    match: try requiredString(rule["match"], what: "\(entity).\(name).match", at: value),
                    key: try requiredString(rule["key"], what: "\(entity).\(name).key", at: value),
                    line: value.mark?.line ?? line, isOptional: try flag(rule["optional"], what: "\(entity).\(name).optional"),
                    keyLine: rule["key"]?.mark?.line))
            }
        }
        return .init(entity: entity, from: from, identity: identity, seed: seed, attributes: attributes,
                     relationships: relationships, line: line, fromLine: fields["from"]?.mark?.line)
    }
}
