import LegacyFormats
import ObjectModel
import SyncStore

/// What converting each element of one mapped array needs, worked out once per stream: the keys
/// to read (the first component of every key path the rule uses), each path split into its slot
/// and the keys below it, and each attribute's type.
struct PropertyListRecordPlan {
    /// A key path of the rule: the slot of its first key in the selection, then the keys below.
    struct KeyPath {
        let slot: Int
        let rest: [String]

        /// The value at this path among an element's selected values.
        func value(in selected: [PropertyListValue?]) -> PropertyListValue? {
            var current = selected[slot]
            for key in rest { current = current?[key: key] }
            return current
        }
    }

    /// One mapped attribute.
    struct Attribute {
        let name: String
        let key: String
        let path: KeyPath
        let type: AttributeType
    }

    /// One mapped to-one relationship, with its targets by matched value.
    struct Relationship {
        let rule: MigrationMapping.RelationshipRule
        let path: KeyPath
        let matchType: AttributeType
        let targets: [AttributeValue: GlobalID]
    }

    let selection: PropertyListKeySelection
    let attributes: [Attribute]
    let relationships: [Relationship]
    let seedFlag: KeyPath?
    let identityKey: KeyPath?

    init(rule: MigrationMapping.EntityRule, model: ManagedModel, lookups: [String: [AttributeValue: GlobalID]]) {
        var keys: [String] = []
        func path(_ keyPath: String) -> KeyPath {
            let parts = keyPath.split(separator: ".").map(String.init)
            let first = parts.first ?? keyPath
            let slot = keys.firstIndex(of: first) ?? { keys.append(first); return keys.count - 1 }()
            return KeyPath(slot: slot, rest: Array(parts.dropFirst()))
        }
        attributes = rule.attributes.map {
            Attribute(name: $0.attribute, key: $0.key, path: path($0.key), type: model.attribute($0.attribute, of: rule.entity)?.type ?? .undefined)
        }
        relationships = rule.relationships.map {
            Relationship(rule: $0, path: path($0.key), matchType: model.attribute($0.match, of: $0.entity)?.type ?? .string,
                         targets: lookups[$0.relationship] ?? [:])
        }
        seedFlag = rule.seed?.when.map(path)
        if case .key(let key) = rule.identity { identityKey = path(key) } else { identityKey = nil }
        selection = PropertyListKeySelection(keys: keys)
    }
}
