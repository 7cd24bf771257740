import LegacyFormats
import ObjectModel

extension PropertyListMappingSource {
    /// One source key path an entity rule reads inside each element, and where the mapping says so.
    private struct SourceKey {
        let path: PropertyListRecordPlan.KeyPath
        let key: String
        let line: Int
        let what: String
    }

    /// Checks that every source key path `rule` reads inside its elements (attributes and
    /// relationship keys not marked optional, and `seed.when:`) is held by at least one element
    /// (`id:` needs no check: an element without its key is rejected): a misspelt key
    /// would otherwise fill nothing and the run would end as if all were well. Elements are read
    /// only until every key has been seen (usually the first); an array without elements, where
    /// nothing can be told, is left alone.
    ///
    /// - Throws: ``MappingError`` naming the mapping's line of the first key no element holds;
    ///   `PropertyListError` when the file is damaged (told first, as the damage is what to fix).
    func requireSourceKeys(of rule: MigrationMapping.EntityRule) throws {
        let plan = PropertyListRecordPlan(rule: rule, model: targetModel, lookups: [:])
        var missing = Self.sourceKeys(of: rule, plan: plan)
        guard !missing.isEmpty else { return }
        var elements = 0
        var isArray = true
        func see(_ selected: [PropertyListValue?]?) -> Bool {
            guard let selected else { return true }
            missing.removeAll { $0.path.value(in: selected) != nil }
            return !missing.isEmpty
        }
        if elementCounts.count(atKeyPath: rule.from) != nil {
            try document.forEachElement(atKeyPath: rule.from, selecting: plan.selection) { _, selected, _ in
                elements += 1
                return see(selected)
            }
            guard elements > 0 else { return }
        } else if case .dictionary(let entries)? = try document.value(atKeyPath: rule.from) {
            elements = 1
            isArray = false
            _ = see(plan.selection.keys.map { entries[$0] })
        } else {
            return
        }
        guard let first = missing.first else { return }
        try document.validate()
        let holder = isArray ? "no element of '\(rule.from)' in \(location) holds (\(elements) read)" : "the dictionary '\(rule.from)' in \(location) does not hold"
        let others = missing.dropFirst().map { "'\($0.key)'" }
        throw MappingError(
            path: mapping.path, line: first.line,
            problem: "\(first.what) of entity \(rule.entity) reads the key path '\(first.key)', which \(holder): a typo would fill nothing"
                + (others.isEmpty ? "" : "; nor \(others.count == 1 ? "is" : "are") \(others.joined(separator: ", ")) there"),
            hint: "run `storekeep inspect \(location)` to see the keys its elements have; a key path joins dictionary keys with '.'; a key that may be absent from every element is marked `{key: …, optional: true}` (docs/mapping.md)")
    }

    /// The key paths `rule` reads, in mapping order.
    private static func sourceKeys(of rule: MigrationMapping.EntityRule, plan: PropertyListRecordPlan) -> [SourceKey] {
        var keys: [SourceKey] = []
        if let flag = plan.seedFlag, let when = rule.seed?.when {
            keys.append(SourceKey(path: flag, key: when, line: rule.line, what: "seed when:"))
        }
        for (attribute, mapped) in zip(plan.attributes, rule.attributes) where !mapped.isOptional {
            keys.append(SourceKey(path: attribute.path, key: attribute.key, line: mapped.line, what: "attribute \(attribute.name)"))
        }
        for relationship in plan.relationships where !relationship.rule.isOptional {
            keys.append(SourceKey(path: relationship.path, key: relationship.rule.key, line: relationship.rule.keyLine ?? relationship.rule.line,
                                  what: "relationship \(relationship.rule.relationship)"))
        }
        return keys
    }
}
