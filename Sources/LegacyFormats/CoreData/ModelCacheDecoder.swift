import Foundation
import ObjectModel

/// Decodes `Z_MODELCACHE.Z_CONTENT` (raw DEFLATE of a keyed archive of an `NSManagedObjectModel`)
/// into a ``ObjectModel/ManagedModel``.
///
/// What is read: entities (name, superentity, abstract, class name, version hash modifier,
/// renaming identifier, uniqueness constraints made of names), attributes (name, type code,
/// optional, transient, indexed, value transformer, the preserve-after-deletion and external
/// storage flags) and relationships (destination, inverse, min/max count, ordered, optional,
/// transient, deletion rule). Fetched properties are kept by name; derived attributes, default
/// values, validation predicates and fetch indexes are not decoded.
enum ModelCacheDecoder {
    /// Why a model cache could not be used, in words for the operator.
    struct Failure: Error { let reason: String }

    /// Decodes the model; `name` names it (the store's file name without extension).
    static func decode(_ content: Data, name: String) throws(Failure) -> ManagedModel {
        guard let plist = RawInflate.inflate(content) else {
            throw Failure(reason: "Z_MODELCACHE is not raw DEFLATE data")
        }
        guard let archive = KeyedArchive(propertyList: plist) else {
            throw Failure(reason: "Z_MODELCACHE does not hold a keyed archive")
        }
        guard let root = archive.fields(at: archive.rootIndex), archive.className(of: root) == "NSManagedObjectModel" else {
            throw Failure(reason: "the archive's root is not an NSManagedObjectModel")
        }
        var entityObjects: [[String: Any]] = []
        for reference in archive.elements(root["NSEntities"]) {
            guard let fields = archive.resolve(reference) as? [String: Any],
                archive.className(of: fields) == "NSEntityDescription"
            else { throw Failure(reason: "an element of NSEntities is not an entity description") }
            entityObjects.append(fields)
        }
        guard !entityObjects.isEmpty else { throw Failure(reason: "the archived model has no entities") }
        var entities: [EntityDescription] = []
        for fields in entityObjects {
            entities.append(try entity(from: fields, in: archive))
        }
        let versionIdentifiers = archive.elements(root["NSVersionIdentifiers"]).compactMap { archive.string($0) }
        return ManagedModel(
            name: name, versionName: name, versionIdentifier: versionIdentifiers.first ?? "", entities: entities)
    }

    private static func entity(from fields: [String: Any], in archive: KeyedArchive) throws(Failure) -> EntityDescription {
        guard let name = archive.string(fields["NSEntityName"]), !name.isEmpty else {
            throw Failure(reason: "an archived entity has no name")
        }
        let parentFields = archive.resolve(fields["NSSuperentity"]) as? [String: Any]
        let parentName = parentFields.flatMap { archive.string($0["NSEntityName"]) }
        // Core Data archives inherited properties again on every sub-entity: keep only the ones the
        // parent does not have, so that the model lists each property once, where it is declared.
        let inherited = Set(parentFields.map { propertyNames(of: $0, in: archive) } ?? [])
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        var fetched: [String] = []
        for reference in archive.elements(fields["NSProperties"]) {
            guard let property = archive.resolve(reference) as? [String: Any],
                let propertyName = archive.string(property["NSPropertyName"])
            else { throw Failure(reason: "entity \(name) has a property without a name") }
            if inherited.contains(propertyName) { continue }
            switch archive.className(of: property) {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                attributes.append(try attribute(propertyName, from: property, entity: name, in: archive))
            case "NSRelationshipDescription":
                relationships.append(try relationship(propertyName, from: property, entity: name, in: archive))
            case "NSFetchedPropertyDescription":
                fetched.append(propertyName)
            case let other:
                throw Failure(reason: "entity \(name): property \(propertyName) is an unknown kind (\(other ?? "no class"))")
            }
        }
        let renaming = archive.string(fields["NSRenamingIdentifier"])
        let constraints: [[String]] = archive.elements(fields["NSUniqueTuples"]).map { tuple in
            archive.elements(tuple).compactMap { archive.string($0) }
        }.filter { !$0.isEmpty }
        return EntityDescription(
            name: name, parentName: parentName, isAbstract: archive.bool(fields["NSIsAbstract"]),
            className: archive.string(fields["NSClassNameForEntity"]), attributes: attributes,
            relationships: relationships, fetchedPropertyNames: fetched, uniquenessConstraints: constraints,
            elementID: renaming == name ? nil : renaming,
            versionHashModifier: archive.string(fields["NSVersionHashModifier"]),
            userInfo: userInfo(fields["NSUserInfo"], in: archive))
    }

    private static func propertyNames(of entity: [String: Any], in archive: KeyedArchive) -> [String] {
        archive.elements(entity["NSProperties"]).compactMap { reference in
            (archive.resolve(reference) as? [String: Any]).flatMap { archive.string($0["NSPropertyName"]) }
        }
    }

    /// `NSAttributeType` codes, as `NSAttributeDescription` archives them.
    static let attributeTypes: [Int: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal, 500: .double,
        600: .float, 700: .string, 800: .boolean, 900: .date, 1000: .binary, 1100: .uuid, 1200: .uri,
        1800: .transformable, 2000: .objectID, 2100: .composite,
    ]

    /// `NSFlagsKey` bit seen on the attributes Xcode marks "preserve after deletion" (value 16).
    static let preserveAfterDeletionFlag = 16
    /// `NSFlagsKey` bit taken as "allows external storage" (value 4; seen on one Binary attribute).
    static let externalStorageFlag = 4

    private static func attribute(
        _ name: String, from fields: [String: Any], entity: String, in archive: KeyedArchive
    ) throws(Failure) -> AttributeDescription {
        guard let code = archive.integer(fields["NSAttributeType"]), let type = attributeTypes[code] else {
            throw Failure(reason: "\(entity).\(name) has an unknown attribute type code")
        }
        let flags = archive.integer(fields["NSFlagsKey"]) ?? 0
        let renaming = archive.string(fields["NSRenamingIdentifier"])
        let isDerived = archive.className(of: fields) == "NSDerivedAttributeDescription"
        var info = userInfo(fields["NSUserInfo"], in: archive)
        if flags & preserveAfterDeletionFlag != 0 { info["NSPreserveAfterDeletion", default: "YES"] = "YES" }
        return AttributeDescription(
            name: name, type: type, isOptional: archive.bool(fields["NSIsOptional"]),
            isTransient: archive.bool(fields["NSIsTransient"]), isDerived: isDerived,
            allowsExternalBinaryDataStorage: type.isBinary && flags & externalStorageFlag != 0,
            isIndexed: archive.bool(fields["NSIsIndexed"]), elementID: renaming == name ? nil : renaming,
            versionHashModifier: archive.string(fields["NSVersionHashModifier"]),
            valueTransformerName: archive.string(fields["NSValueTransformerName"]),
            preservesValueOnDeletion: flags & preserveAfterDeletionFlag != 0 ? true : nil, userInfo: info)
    }

    private static func relationship(
        _ name: String, from fields: [String: Any], entity: String, in archive: KeyedArchive
    ) throws(Failure) -> RelationshipDescription {
        let destinationFields = archive.resolve(fields["NSDestinationEntity"]) as? [String: Any]
        guard let destination = archive.string(fields["_NSDestinationEntityName"])
            ?? destinationFields.flatMap({ archive.string($0["NSEntityName"]) })
        else { throw Failure(reason: "\(entity).\(name) has no destination entity") }
        let inverseFields = archive.resolve(fields["NSInverseRelationship"]) as? [String: Any]
        let inverseName = archive.string(fields["_NSInverseRelationshipName"])
            ?? inverseFields.flatMap { archive.string($0["NSPropertyName"]) }
        let maxCount = archive.integer(fields["NSMaxCount"]) ?? 0
        let rules: [Int: DeletionRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
        let renaming = archive.string(fields["NSRenamingIdentifier"])
        return RelationshipDescription(
            name: name, destination: destination, inverseName: inverseName,
            inverseEntity: inverseName == nil ? nil : destination, isToMany: maxCount != 1,
            isOrdered: archive.bool(fields["NSIsOrdered"]), isOptional: archive.bool(fields["NSIsOptional"]),
            isTransient: archive.bool(fields["NSIsTransient"]),
            deletionRule: rules[archive.integer(fields["NSDeleteRule"]) ?? 1] ?? .nullify,
            minCount: archive.integer(fields["NSMinCount"]) ?? 0, maxCount: maxCount,
            elementID: renaming == name ? nil : renaming,
            versionHashModifier: archive.string(fields["NSVersionHashModifier"]),
            userInfo: userInfo(fields["NSUserInfo"], in: archive))
    }

    private static func userInfo(_ value: Any?, in archive: KeyedArchive) -> [String: String] {
        var info: [String: String] = [:]
        for pair in archive.pairs(value) {
            if let key = archive.string(pair.key), let text = archive.string(pair.value) { info[key] = text }
        }
        return info
    }
}
