import LegacyFormats
import XcodeModel
import ObjectModel

/// What `storekeep model show` reports about one model version: entities with their properties,
/// configurations, composite types, storekeep's facts and the version hashes.
///
/// Field names are part of the JSON contract: fields are only ever added.
///
/// ```swift
/// let report = ModelReport(bundle: bundle, model: bundle.current, path: path)
/// report.entities.first?.attributes.map(\.name)
/// ```
public struct ModelReport: Encodable, Sendable, Equatable {
    /// One attribute.
    public struct Attribute: Encodable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The attribute type, in Xcode's words.
        public var type: String
        /// Whether it may be empty.
        public var optional: Bool
        /// Whether it is never stored.
        public var transient: Bool
        /// Whether it is derived from other values.
        public var derived: Bool
        /// The derivation expression.
        public var derivation: String?
        /// The default value as written in the model.
        public var defaultValue: String?
        /// Whether large values may go to blob files.
        public var externalStorage: Bool
        /// Whether it is indexed.
        public var indexed: Bool
        /// The renaming identifier.
        public var elementID: String?
        /// The version hash modifier.
        public var versionHashModifier: String?
        /// The minimum value or length.
        public var minValue: String?
        /// The maximum value or length.
        public var maxValue: String?
        /// The regular expression string values must match.
        public var regularExpression: String?
        /// The composite type name.
        public var composite: String?
        /// The value transformer name.
        public var valueTransformer: String?
        /// The model editor's key/value pairs.
        public var userInfo: [String: String]
    }

    /// One relationship.
    public struct Relationship: Encodable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The destination entity.
        public var destination: String
        /// The inverse relationship.
        public var inverse: String?
        /// Whether it holds many records.
        public var toMany: Bool
        /// Whether a to-many relationship keeps its order.
        public var ordered: Bool
        /// Whether it may be empty.
        public var optional: Bool
        /// Whether it is never stored.
        public var transient: Bool
        /// The deletion rule.
        public var deletionRule: String
        /// The minimum number of destinations.
        public var minCount: Int
        /// The maximum number of destinations (0: unbounded).
        public var maxCount: Int
        /// The renaming identifier.
        public var elementID: String?
        /// The version hash modifier.
        public var versionHashModifier: String?
        /// The model editor's key/value pairs.
        public var userInfo: [String: String]
    }

    /// storekeep's facts about an entity (from its `userInfo`, inherited when it declares none).
    public struct Facts: Encodable, Sendable, Equatable {
        /// The attributes that identify a seed record.
        public var seedKey: [String]
        /// Whether at most one live record may exist.
        public var singleton: Bool
        /// What repair does with an invalid record.
        public var invalidRecordPolicy: String
    }

    /// One fetch index.
    public struct FetchIndex: Encodable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The indexed properties, in order.
        public var properties: [String]
    }

    /// One entity, with the properties it declares itself.
    public struct Entity: Encodable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The parent entity.
        public var parent: String?
        /// Whether it is abstract.
        public var abstract: Bool
        /// The class name generated code uses.
        public var className: String?
        /// The entity version hash.
        public var hash: String
        /// Core Data's own entity version hash (64 hex digits), as Core Data writes it into a store's
        /// `NSStoreModelVersionHashes`.
        public var coreDataHash: String
        /// The attributes it declares.
        public var attributes: [Attribute]
        /// The relationships it declares.
        public var relationships: [Relationship]
        /// The names of its fetched properties.
        public var fetchedProperties: [String]
        /// Its uniqueness constraints.
        public var uniquenessConstraints: [[String]]
        /// Its fetch indexes.
        public var fetchIndexes: [FetchIndex]
        /// The renaming identifier.
        public var elementID: String?
        /// The version hash modifier.
        public var versionHashModifier: String?
        /// The model editor's key/value pairs.
        public var userInfo: [String: String]
        /// storekeep's facts in force for it.
        public var facts: Facts
    }

    /// One configuration.
    public struct Configuration: Encodable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The member entities.
        public var entities: [String]
        /// Whether it is marked for CloudKit.
        public var usedWithCloudKit: Bool
        /// Whether it is read-only seed data, kept in a seed store (`docs/models.md`).
        public var seedData: Bool
    }

    /// One composite type.
    public struct Composite: Encodable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The attributes it declares.
        public var attributes: [Attribute]
    }

    /// The path the model was read from.
    public var path: String
    /// The model's name.
    public var name: String
    /// The version shown.
    public var version: String
    /// The model's own version identifier.
    public var versionIdentifier: String
    /// Whether the version shown is the bundle's current version.
    public var isCurrent: Bool
    /// The current version's name.
    public var currentVersion: String
    /// Every version in the bundle, in version order.
    public var versions: [String]
    /// The version hash of the version shown.
    public var hash: String
    /// The entities, in the order the model file lists them.
    public var entities: [Entity]
    /// The configurations.
    public var configurations: [Configuration]
    /// The composite types.
    public var composites: [Composite]

    /// Describes `model`, one version of `bundle` read from `path`.
    public init(bundle: ModelBundle, model: ManagedModel, path: String) {
        let hashes = ModelVersionHash(model)
        let coreDataHashes = CoreDataVersionHash.entityHashes(of: model)
        self.path = path
        name = bundle.name
        version = model.versionName
        versionIdentifier = model.versionIdentifier
        currentVersion = bundle.currentVersionName
        isCurrent = model.versionName == bundle.currentVersionName
        versions = bundle.versions.map(\.versionName)
        hash = hashes.model
        entities = model.entities.map { entity in
            let facts = model.facts(of: entity.name)
            return Entity(
                name: entity.name, parent: entity.parentName, abstract: entity.isAbstract, className: entity.className,
                hash: hashes.entities[entity.name] ?? "", coreDataHash: CoreDataVersionHash.hex(coreDataHashes[entity.name] ?? []),
                attributes: entity.attributes.map(Self.attribute),
                relationships: entity.relationships.map(Self.relationship), fetchedProperties: entity.fetchedPropertyNames,
                uniquenessConstraints: entity.uniquenessConstraints,
                fetchIndexes: entity.fetchIndexes.map { FetchIndex(name: $0.name, properties: $0.elements.map(\.property)) },
                elementID: entity.elementID, versionHashModifier: entity.versionHashModifier, userInfo: entity.userInfo,
                facts: Facts(seedKey: facts.seedKey, singleton: facts.isSingleton, invalidRecordPolicy: facts.invalidRecordPolicy.rawValue))
        }
        let seedNames = Set(model.seedConfigurations.map(\.name))
        configurations = model.configurations.map {
            Configuration(name: $0.name, entities: $0.entityNames, usedWithCloudKit: $0.usedWithCloudKit,
                          seedData: seedNames.contains($0.name))
        }
        composites = model.composites.map { Composite(name: $0.name, attributes: $0.attributes.map(Self.attribute)) }
    }

    private static func attribute(_ attribute: AttributeDescription) -> Attribute {
        Attribute(
            name: attribute.name, type: attribute.type.rawValue, optional: attribute.isOptional, transient: attribute.isTransient,
            derived: attribute.isDerived, derivation: attribute.derivationExpression, defaultValue: attribute.defaultValueString,
            externalStorage: attribute.allowsExternalBinaryDataStorage, indexed: attribute.isIndexed, elementID: attribute.elementID,
            versionHashModifier: attribute.versionHashModifier, minValue: attribute.minValueString, maxValue: attribute.maxValueString,
            regularExpression: attribute.regularExpression, composite: attribute.compositeName,
            valueTransformer: attribute.valueTransformerName, userInfo: attribute.userInfo)
    }

    private static func relationship(_ relationship: RelationshipDescription) -> Relationship {
        Relationship(
            name: relationship.name, destination: relationship.destination, inverse: relationship.inverseName,
            toMany: relationship.isToMany, ordered: relationship.isOrdered, optional: relationship.isOptional,
            transient: relationship.isTransient, deletionRule: relationship.deletionRule.rawValue,
            minCount: relationship.minCount, maxCount: relationship.maxCount, elementID: relationship.elementID,
            versionHashModifier: relationship.versionHashModifier, userInfo: relationship.userInfo)
    }
}
