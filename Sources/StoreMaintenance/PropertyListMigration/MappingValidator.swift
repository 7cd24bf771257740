import ObjectModel

/// Checks a mapping against its model before anything is read: every name must exist and fit.
enum MappingValidator {
    /// Throws ``MappingError`` naming the line of the first rule that does not fit `model`.
    static func validate(_ mapping: MigrationMapping, against model: ManagedModel) throws {
        var mapped: Set<String> = []
        for rule in mapping.entities {
            func fail(_ line: Int, _ problem: String) -> MappingError {
                MappingError(path: mapping.path, line: line, problem: problem)
            }
            guard let entity = model.entity(named: rule.entity) else {
                throw fail(rule.line, "model \(model.name) \(model.versionName) has no entity named '\(rule.entity)'")
            }
            if entity.isAbstract { throw fail(rule.line, "entity \(rule.entity) is abstract; map one of its sub-entities") }
            for attribute in rule.attributes {
                guard let description = model.attribute(attribute.attribute, of: rule.entity) else {
                    throw fail(attribute.line, "entity \(rule.entity) has no attribute named '\(attribute.attribute)'")
                }
                if description.isTransient { throw fail(attribute.line, "\(rule.entity).\(attribute.attribute) is transient and never stored") }
            }
            for relationship in rule.relationships {
                guard let description = model.relationship(relationship.relationship, of: rule.entity) else {
                    throw fail(relationship.line, "entity \(rule.entity) has no relationship named '\(relationship.relationship)'")
                }
                if description.isToMany {
                    throw fail(relationship.line, "\(rule.entity).\(relationship.relationship) is to-many; a mapping fills to-one relationships (set the inverse on the other side)")
                }
                guard model.entity(relationship.entity, isKindOf: description.destination) else {
                    throw fail(relationship.line, "\(rule.entity).\(relationship.relationship) points to \(description.destination), not \(relationship.entity)")
                }
                guard mapped.contains(relationship.entity) else {
                    throw fail(relationship.line, "\(relationship.entity) must be mapped before \(rule.entity), which looks its records up")
                }
                guard model.attribute(relationship.match, of: relationship.entity) != nil else {
                    throw fail(relationship.line, "entity \(relationship.entity) has no attribute named '\(relationship.match)' to match")
                }
            }
            if rule.identity == .seedKey {
                let key = model.facts(of: rule.entity).seedKey
                if key.isEmpty {
                    throw fail(rule.line, "id: seedKey needs a seed key on \(rule.entity) (userInfo storekeep.seedKey)")
                }
                let given = Set(rule.attributes.map(\.attribute))
                if let missing = key.first(where: { !given.contains($0) }) {
                    throw fail(rule.line, "id: seedKey needs the seed-key attribute '\(missing)' of \(rule.entity) to be mapped")
                }
            }
            mapped.insert(rule.entity)
        }
    }
}
