/// The version hash of a model and of each of its entities: what two peers must agree on to sync.
///
/// The hash covers what matters for storage and for merging, and nothing else (the exact text it
/// hashes is documented in `docs/format.md`):
/// - per entity: name, parent, abstract flag, `versionHashModifier`, uniqueness constraints and
///   storekeep facts (they decide how a merge de-duplicates, so peers must share them);
/// - per persistent attribute: name, type, optional flag, composite name, `versionHashModifier`;
/// - per persistent relationship: name, destination, inverse, to-many, ordered, optional, min and
///   max count, `versionHashModifier`;
/// - composite types, with their attributes;
/// - seed configurations (their names and entities) and seed references, only when the model
///   has a seed configuration (`docs/models.md`).
///
/// Not covered: transient properties, fetched properties, class names, diagram positions,
/// default values, validation rules (min, max, regular expression), indexes, deletion rules,
/// `elementID`, external-storage flags, configurations that are not seed data, and `userInfo` other
/// than storekeep's keys.
///
/// ```swift
/// let hash = ModelVersionHash(model)
/// hash.model          // 64 hex digits
/// hash.entities["Speech"]
/// ```
public struct ModelVersionHash: Hashable, Sendable, Codable {
    /// The hash of the whole model version, 64 lowercase hex digits.
    public var model: String
    /// The hash of each entity, by entity name.
    public var entities: [String: String]

    /// Computes the hashes of `model`.
    public init(_ model: ManagedModel) {
        var entityHashes: [String: String] = [:]
        for entity in model.entities {
            entityHashes[entity.name] = SHA256.hexDigest(of: Self.canonicalText(of: entity))
        }
        var lines = ["storekeep-model-hash 1"]
        for (name, hash) in entityHashes.sorted(by: { $0.key < $1.key }) {
            lines.append("entity \(name) \(hash)")
        }
        for composite in model.composites.sorted(by: { $0.name < $1.name }) {
            lines.append("composite \(composite.name)")
            for attribute in composite.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
                lines.append("  " + Self.canonicalLine(of: attribute))
            }
        }
        // Which entities live in a seed store, and which attributes point into one: peers must
        // agree on what they sync. Only a model with a seed configuration has these lines, so every
        // other model keeps its hash.
        for configuration in model.seedConfigurations {
            lines.append("seedConfiguration \(configuration.name) \(model.seedEntities(of: configuration.name).map(\.name).sorted().joined(separator: ","))")
        }
        for reference in model.seedReferences {
            lines.append("seedReference \(reference.entity).\(reference.attribute) \(reference.target)")
        }
        self.model = SHA256.hexDigest(of: lines.joined(separator: "\n") + "\n")
        self.entities = entityHashes
    }

    /// The exact text hashed for one entity (documented in `docs/format.md`).
    public static func canonicalText(of entity: EntityDescription) -> String {
        var lines: [String] = []
        lines.append("entity \(entity.name)")
        lines.append("parent \(entity.parentName ?? "-")")
        lines.append("abstract \(flag(entity.isAbstract))")
        lines.append("modifier \(entity.versionHashModifier ?? "-")")
        for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
            lines.append(canonicalLine(of: attribute))
        }
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
            lines.append([
                "relationship \(relationship.name)",
                "destination=\(relationship.destination)",
                "inverse=\(relationship.inverseName ?? "-")",
                "toMany=\(flag(relationship.isToMany))",
                "ordered=\(flag(relationship.isToMany && relationship.isOrdered))",
                "optional=\(flag(relationship.isOptional))",
                "min=\(relationship.minCount)",
                "max=\(relationship.isToMany ? relationship.maxCount : 1)",
                "modifier=\(relationship.versionHashModifier ?? "-")",
            ].joined(separator: " "))
        }
        for constraint in entity.uniquenessConstraints.map({ $0.sorted() }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            lines.append("unique \(constraint.joined(separator: ","))")
        }
        lines.append("seedKey \(entity.facts.seedKey.joined(separator: ","))")
        lines.append("singleton \(flag(entity.facts.isSingleton))")
        lines.append("invalidRecordPolicy \(entity.facts.invalidRecordPolicy.rawValue)")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func canonicalLine(of attribute: AttributeDescription) -> String {
        [
            "attribute \(attribute.name)",
            "type=\(attribute.type.rawValue)",
            "optional=\(flag(attribute.isOptional))",
            "composite=\(attribute.compositeName ?? "-")",
            "modifier=\(attribute.versionHashModifier ?? "-")",
        ].joined(separator: " ")
    }

    private static func flag(_ value: Bool) -> String { value ? "1" : "0" }
}

extension ManagedModel {
    /// The model's version hash (see ``ModelVersionHash``).
    public var versionHash: String { ModelVersionHash(self).model }
}
