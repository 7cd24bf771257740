import ObjectModel

extension StepChain {
    /// What the steps do not carry to the target, per concrete entity of the source version: the
    /// whole entity when a step has no place for its records, else each stored attribute and each
    /// relationship its records keep (to-one, or a to-many in a join table) that no step takes any
    /// further. Values counted by the source (``DroppedData``); a to-many kept by a to-one inverse
    /// is the inverse's to drop. A value a key path reads (a mapping model's `$source.a.b`) counts
    /// as carried.
    public var dropped: [DroppedData] {
        guard !steps.isEmpty else { return [] }
        var found: [DroppedData] = []
        for entity in source.entities where !entity.isAbstract {
            if let step = stepDroppingRecords(of: entity.name) {
                found.append(DroppedData(kind: .entity, entity: entity.name, property: nil, values: 0, step: step))
                continue
            }
            for attribute in source.attributes(of: entity.name) where !attribute.isTransient && !attribute.isDerived {
                if let step = stepDropping(attribute.name, of: entity.name, isAttribute: true) {
                    found.append(DroppedData(kind: .attribute, entity: entity.name, property: attribute.name, values: 0, step: step))
                }
            }
            for relationship in source.relationships(of: entity.name)
            where !relationship.isTransient && StepInference.isKeptByOwner(relationship, in: source) {
                if let step = stepDropping(relationship.name, of: entity.name, isAttribute: false) {
                    found.append(DroppedData(kind: .relationship, entity: entity.name, property: relationship.name, values: 0, step: step))
                }
            }
        }
        return found
    }

    /// The step ("from → to") that has no place for the records of source entity `entity`, if one has none.
    private func stepDroppingRecords(of entity: String) -> String? {
        var current = entity
        for step in steps {
            guard let next = step.entities[current]?.target else { return "\(step.from) → \(step.to)" }
            current = next
        }
        return nil
    }

    /// The step ("from → to") after which nothing holds the values of `property` of source entity
    /// `entity`, or `nil` when they reach the target.
    private func stepDropping(_ property: String, of entity: String, isAttribute: Bool) -> String? {
        var live: Set<String> = [property]
        var current = entity
        for step in steps {
            guard let entityStep = step.entities[current] else { return nil }
            var next: Set<String> = []
            if isAttribute {
                for attribute in entityStep.attributes {
                    if case .copy(let from, _) = attribute.origin, live.contains(from) { next.insert(attribute.name) }
                }
            } else {
                for (name, from) in entityStep.relationships where live.contains(from) { next.insert(name) }
            }
            if readThroughKeyPath(live, isAttribute: isAttribute, in: step) { return nil }
            guard !next.isEmpty else { return "\(step.from) → \(step.to)" }
            live = next
            current = entityStep.target
        }
        return nil
    }

    /// Whether a key path of `step` reads one of `names` (an attribute at its end, or a to-one on its way).
    private func readThroughKeyPath(_ names: Set<String>, isAttribute: Bool, in step: ModelStep) -> Bool {
        step.entities.values.contains { entityStep in
            let attributePaths = entityStep.attributes.compactMap { attribute -> [String]? in
                if case .path(let path, _) = attribute.origin { return path }
                return nil
            }
            if isAttribute { return attributePaths.contains { $0.last.map(names.contains) == true } }
            return (attributePaths.map { $0.dropLast() } + entityStep.relationshipPaths.values.map { $0[...] })
                .contains { path in path.contains(where: names.contains) }
        }
    }
}
