import ObjectModel

/// What differs, for Core Data's versioning, between two model versions: what enters Core Data's
/// entity version hashes (``CoreDataVersionHash``), in words an operator can act on.
///
/// ```swift
/// CoreDataModelDifferences.between(storeModel, and: bundle.current, limit: 5)
/// // ["Post.title is String in 'store', Integer 32 in 'Blog 3'", "entity Comment is in 'store', not in 'Blog 3'"]
/// ```
public enum CoreDataModelDifferences {
    /// The differences between `old` and `new`, at most `limit` of them, named by each model's version name.
    public static func between(_ old: ManagedModel, and new: ManagedModel, limit: Int = 8) -> [String] {
        var found: [String] = []
        let oldName = "'\(old.versionName)'"
        let newName = "'\(new.versionName)'"
        for entity in old.entities where new.entity(named: entity.name) == nil {
            found.append(entityOnly(entity.name, in: old, notIn: new))
        }
        for entity in new.entities where old.entity(named: entity.name) == nil {
            found.append(entityOnly(entity.name, in: new, notIn: old))
        }
        for entity in old.entities {
            guard let other = new.entity(named: entity.name) else { continue }
            found += differences(of: entity, in: old, and: other, in: new, names: (oldName, newName))
        }
        return Array(found.prefix(max(limit, 0)))
    }

    /// "entity Book is in 'store', not in 'Blog 3'": the words ``between(_:and:limit:)`` uses for an
    /// entity that only one of the two versions has.
    public static func entityOnly(_ entity: String, in one: ManagedModel, notIn other: ManagedModel) -> String {
        "entity \(entity) is in '\(one.versionName)', not in '\(other.versionName)'"
    }

    private static func differences(of entity: EntityDescription, in old: ManagedModel, and other: EntityDescription,
                                    in new: ManagedModel, names: (String, String)) -> [String] {
        var found: [String] = []
        let name = entity.name
        if entity.parentName != other.parentName {
            found.append("\(name)'s parent is \(entity.parentName ?? "none") in \(names.0), \(other.parentName ?? "none") in \(names.1)")
        }
        if entity.isAbstract != other.isAbstract {
            found.append("\(name) is \(entity.isAbstract ? "abstract" : "concrete") in \(names.0), \(other.isAbstract ? "abstract" : "concrete") in \(names.1)")
        }
        if entity.versionHashModifier != other.versionHashModifier {
            found.append("\(name)'s version hash modifier differs")
        }
        if Set(entity.uniquenessConstraints.map { $0.joined(separator: ".") }) != Set(other.uniquenessConstraints.map { $0.joined(separator: ".") }) {
            found.append("\(name)'s uniqueness constraints differ")
        }
        let oldAttributes = Dictionary(old.attributes(of: name).filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let newAttributes = Dictionary(new.attributes(of: name).filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let oldRelationships = Dictionary(old.relationships(of: name).filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let newRelationships = Dictionary(new.relationships(of: name).filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for key in Set(oldAttributes.keys).union(oldRelationships.keys).sorted()
        where newAttributes[key] == nil && newRelationships[key] == nil {
            found.append("\(name).\(key) is in \(names.0), not in \(names.1)")
        }
        for key in Set(newAttributes.keys).union(newRelationships.keys).sorted()
        where oldAttributes[key] == nil && oldRelationships[key] == nil {
            found.append("\(name).\(key) is in \(names.1), not in \(names.0)")
        }
        for key in oldAttributes.keys.sorted() {
            guard let a = oldAttributes[key], let b = newAttributes[key] else { continue }
            if a.type != b.type { found.append("\(name).\(key) is \(a.type.rawValue) in \(names.0), \(b.type.rawValue) in \(names.1)") }
            if a.isOptional != b.isOptional {
                found.append("\(name).\(key) is \(a.isOptional ? "optional" : "required") in \(names.0), \(b.isOptional ? "optional" : "required") in \(names.1)")
            }
            if a.allowsExternalBinaryDataStorage != b.allowsExternalBinaryDataStorage { found.append("\(name).\(key): external storage differs") }
            if (a.preservesValueOnDeletion ?? false) != (b.preservesValueOnDeletion ?? false) { found.append("\(name).\(key): preserve after deletion differs") }
            if a.versionHashModifier != b.versionHashModifier { found.append("\(name).\(key): version hash modifier differs") }
        }
        for key in oldRelationships.keys.sorted() {
            guard let a = oldRelationships[key], let b = newRelationships[key] else { continue }
            if a.destination != b.destination { found.append("\(name).\(key) goes to \(a.destination) in \(names.0), \(b.destination) in \(names.1)") }
            if a.isToMany != b.isToMany || (a.isToMany && a.isOrdered != b.isOrdered) {
                found.append("\(name).\(key) is \(shape(a)) in \(names.0), \(shape(b)) in \(names.1)")
            }
            if a.inverseName != b.inverseName { found.append("\(name).\(key)'s inverse is \(a.inverseName ?? "none") in \(names.0), \(b.inverseName ?? "none") in \(names.1)") }
            if a.isOptional != b.isOptional {
                found.append("\(name).\(key) is \(a.isOptional ? "optional" : "required") in \(names.0), \(b.isOptional ? "optional" : "required") in \(names.1)")
            }
            if a.minCount != b.minCount || (a.isToMany && a.maxCount != b.maxCount) { found.append("\(name).\(key): its counts differ") }
            if a.versionHashModifier != b.versionHashModifier { found.append("\(name).\(key): version hash modifier differs") }
        }
        for key in oldAttributes.keys.sorted() where oldRelationships[key] == nil && newRelationships[key] != nil {
            found.append("\(name).\(key) is an attribute in \(names.0), a relationship in \(names.1)")
        }
        return found
    }

    private static func shape(_ relationship: RelationshipDescription) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }
}
