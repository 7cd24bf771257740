import Foundation
import ObjectModel

/// Core Data's own entity version hashes: the 32-byte values Core Data writes into a store's
/// metadata (`NSStoreModelVersionHashes` in `Z_METADATA`) and compares with an app's model versions
/// to find the version a store was made with.
///
/// What enters them (each part SHA-256 hashed, numbers little-endian):
/// - a **property**: its name, then two bytes of flags (optional 1, transient 2, read-only 4), then
///   its `versionHashModifier`;
/// - an **attribute**: the property's hash, its `NSAttributeType` code in four bytes, then one byte
///   `01` when it allows external storage and one more when its value is preserved after deletion;
/// - a **relationship**: the property's hash, the destination entity's name, the inverse's name
///   (left out when the relationship is its own inverse), the maximum then the minimum count in
///   four bytes each (a to-one's maximum is 1), then `01 00` when it is ordered;
/// - an **entity**: its name, one byte for abstract, its parent's entity hash, the hashes of every
///   stored (non-transient) attribute and relationship, inherited ones included, in name order, its
///   `versionHashModifier`, then each uniqueness constraint's names joined with `.`, sorted.
///
/// Class names, user info, validation rules, default values, indexes, renaming identifiers and
/// deletion rules do not enter them (the deletion rule is in Apple's list of what matters, but not
/// in the hash). Every entity of every corpus store whose model is known hashes to the value in its
/// metadata (Photos' 54 entities through its `Z_MODELCACHE`). Derived and composite attributes follow
/// Core Data's code as published, but no store in the corpus proves them: ``unprovenEntities(of:)``
/// names the entities that have one.
///
/// ```swift
/// let hashes = CoreDataVersionHash.entityHashes(of: bundle.current)
/// CoreDataVersionHash.hex(hashes["Post"]!)   // "5a24f7b6…" (64 hex digits)
/// ```
public enum CoreDataVersionHash {
    /// What the hash covers.
    public enum Style: Sendable {
        /// Core Data's hash, byte for byte.
        case coreData
        /// Core Data's hash without derivation expressions and composite elements, which a model
        /// decoded from a store's `Z_MODELCACHE` does not carry: used to compare such a model with a
        /// model version, never to compare with a store's metadata.
        case structural
    }

    /// The hash of every entity of `model`, by entity name (32 bytes each).
    public static func entityHashes(of model: ManagedModel, style: Style = .coreData) -> [String: [UInt8]] {
        var computer = Computer(model: model, style: style)
        var hashes: [String: [UInt8]] = [:]
        for entity in model.entities { hashes[entity.name] = computer.entityHash(entity.name) }
        return hashes
    }

    /// The entities whose hash depends on a derived or composite attribute (their own or inherited),
    /// which no store of the corpus proves.
    public static func unprovenEntities(of model: ManagedModel) -> [String] {
        model.entities.map(\.name).filter { name in
            model.attributes(of: name).contains { !$0.isTransient && ($0.isDerived || $0.type == .composite) }
        }
    }

    /// Lowercase hexadecimal digits of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// `NSAttributeType` codes, as Core Data numbers attribute types.
    public static func typeCode(of type: AttributeType) -> UInt32 {
        switch type {
        case .undefined: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        case .composite: return 2100
        }
    }

    /// One computation over a model, remembering entity hashes (a sub-entity's hash includes its parent's).
    private struct Computer {
        let model: ManagedModel
        let style: Style
        var done: [String: [UInt8]] = [:]
        var inProgress: Set<String> = []

        init(model: ManagedModel, style: Style) {
            self.model = model
            self.style = style
        }

        mutating func entityHash(_ name: String) -> [UInt8] {
            if let known = done[name] { return known }
            guard let entity = model.entity(named: name) else { return [] }
            // A parent cycle is a broken model (reported elsewhere): hash it without the parent.
            inProgress.insert(name)
            var parentHash: [UInt8]?
            if let parent = entity.parentName, model.entity(named: parent) != nil, !inProgress.contains(parent) {
                parentHash = entityHash(parent)
            }
            inProgress.remove(name)
            var hasher = SHA256()
            hasher.update(entity.name)
            hasher.update(Data([entity.isAbstract ? 1 : 0]))
            if let parentHash { hasher.update(Data(parentHash)) }
            for property in storedProperties(of: name) {
                hasher.update(Data(propertyHash(property, in: name)))
            }
            if let modifier = entity.versionHashModifier { hasher.update(modifier) }
            for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() where !constraint.isEmpty {
                hasher.update(constraint)
            }
            let hash = hasher.finalize()
            done[name] = hash
            return hash
        }

        /// Every stored attribute and relationship of `name`, inherited ones included (a sub-entity's
        /// own declaration wins), in the byte order of their names.
        private func storedProperties(of name: String) -> [Property] {
            var byName: [String: Property] = [:]
            for entity in model.inheritanceChain(of: name) {
                for attribute in entity.attributes { byName[attribute.name] = .attribute(attribute) }
                for relationship in entity.relationships { byName[relationship.name] = .relationship(relationship, declaredBy: entity.name) }
            }
            return byName.values.filter { !$0.isTransient }.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        }

        private func propertyHash(_ property: Property, in entity: String) -> [UInt8] {
            switch property {
            case .attribute(let attribute): return attributeHash(attribute)
            case .relationship(let relationship, let declaredBy): return relationshipHash(relationship, in: entity, declaredBy: declaredBy)
            }
        }

        private func baseHash(name: String, optional: Bool, transient: Bool, modifier: String?) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(name)
            let flags: UInt16 = (optional ? 1 : 0) | (transient ? 2 : 0)
            hasher.update(Data([UInt8(flags & 0xFF), UInt8(flags >> 8)]))
            if let modifier { hasher.update(modifier) }
            return hasher.finalize()
        }

        private func attributeHash(_ attribute: AttributeDescription) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(Data(baseHash(name: attribute.name, optional: attribute.isOptional, transient: attribute.isTransient,
                                        modifier: attribute.versionHashModifier)))
            hasher.update(Data(littleEndian(CoreDataVersionHash.typeCode(of: attribute.type))))
            if attribute.allowsExternalBinaryDataStorage { hasher.update(Data([1])) }
            if attribute.preservesValueOnDeletion == true { hasher.update(Data([1])) }
            let plain = hasher.finalize()
            guard style == .coreData else { return plain }
            if attribute.isDerived {
                // Core Data's derived attribute hashes its derivation expression's text (not proven by the corpus).
                var derived = SHA256()
                if let expression = attribute.derivationExpression { derived.update(expression) }
                return derived.finalize()
            }
            if attribute.type == .composite, let name = attribute.compositeName,
               let composite = model.composites.first(where: { $0.name == name }) {
                // Core Data's composite attribute hashes its elements' hashes in name order (not proven by the corpus).
                var elements = SHA256()
                let sorted = composite.attributes.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
                for element in sorted { elements.update(Data(attributeHash(element))) }
                return elements.finalize()
            }
            return plain
        }

        private func relationshipHash(_ relationship: RelationshipDescription, in entity: String, declaredBy: String) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(Data(baseHash(name: relationship.name, optional: relationship.isOptional, transient: relationship.isTransient,
                                        modifier: relationship.versionHashModifier)))
            hasher.update(relationship.destination)
            if let inverse = relationship.inverseName, !isOwnInverse(relationship, in: entity, declaredBy: declaredBy) {
                hasher.update(inverse)
            }
            let maxCount = relationship.isToMany ? relationship.maxCount : 1
            hasher.update(Data(littleEndian(UInt32(clamping: maxCount))))
            hasher.update(Data(littleEndian(UInt32(clamping: relationship.minCount))))
            if relationship.isToMany && relationship.isOrdered { hasher.update(Data([1, 0])) }
            return hasher.finalize()
        }

        /// A relationship whose inverse is itself (a reflexive relationship), on the entity that
        /// declares it or inherited from it, hashes without its inverse's name.
        private func isOwnInverse(_ relationship: RelationshipDescription, in entity: String, declaredBy: String) -> Bool {
            relationship.inverseName == relationship.name
                && (relationship.destination == entity || relationship.destination == declaredBy)
        }

        private func littleEndian(_ value: UInt32) -> [UInt8] {
            [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
        }
    }

    /// A stored property, with the entity that declares a relationship.
    private enum Property {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription, declaredBy: String)

        var name: String {
            switch self {
            case .attribute(let attribute): return attribute.name
            case .relationship(let relationship, _): return relationship.name
            }
        }

        var isTransient: Bool {
            switch self {
            case .attribute(let attribute): return attribute.isTransient
            case .relationship(let relationship, _): return relationship.isTransient
            }
        }
    }
}
