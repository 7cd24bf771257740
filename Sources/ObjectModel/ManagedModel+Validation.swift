extension ManagedModel {
    /// Structural problems that make the model unusable for a store, one sentence each.
    ///
    /// Checked: duplicate entity names, unknown or cyclic parents, properties declared twice in
    /// one inheritance chain, relationships to unknown entities, inverses that do not exist, and
    /// composite attributes naming an unknown composite. An empty array means the model is usable.
    public func structuralProblems() -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for entity in entities {
            if !seen.insert(entity.name).inserted { problems.append("entity \(entity.name) is declared twice") }
        }
        let compositeNames = Set(composites.map(\.name))
        for entity in entities {
            if let parent = entity.parentName {
                if self.entity(named: parent) == nil {
                    problems.append("entity \(entity.name) inherits from \(parent), which is not in the model")
                } else if inheritanceChain(of: entity.name).first?.parentName != nil {
                    problems.append("entity \(entity.name) is part of an inheritance cycle")
                }
            }
            var propertyNames = Set<String>()
            for name in attributes(of: entity.name).map(\.name) + relationships(of: entity.name).map(\.name) {
                if !propertyNames.insert(name).inserted {
                    problems.append("entity \(entity.name) has two properties named \(name)")
                }
            }
            for attribute in entity.attributes where attribute.type == .composite {
                if let composite = attribute.compositeName, !compositeNames.contains(composite) {
                    problems.append("attribute \(entity.name).\(attribute.name) uses composite \(composite), which is not in the model")
                }
            }
            for relationship in entity.relationships {
                guard self.entity(named: relationship.destination) != nil else {
                    problems.append("relationship \(entity.name).\(relationship.name) points to \(relationship.destination), which is not in the model")
                    continue
                }
                if let inverse = relationship.inverseName,
                   self.relationship(inverse, of: relationship.inverseEntity ?? relationship.destination) == nil {
                    problems.append("relationship \(entity.name).\(relationship.name) names inverse \(inverse), which \(relationship.destination) does not have")
                }
            }
        }
        return problems
    }
}
