extension ManagedModel {
    /// Structural problems that make the model unusable for a store, one sentence each
    /// (``problems()`` without the entity and property each is about).
    public func structuralProblems() -> [String] {
        problems().map(\.description)
    }

    /// Structural problems that make the model unusable for a store, each with the entity and
    /// property it is about. An empty array means the model is usable.
    ///
    /// Checked: names that are empty or hold a NUL character (SQLite cannot keep one: see
    /// ``Swift/String/unusableNameReason``), configuration names holding `/` or `..` (a seed
    /// configuration's name is part of its seed store's file name), duplicate entity names, unknown or cyclic parents,
    /// properties declared twice in one inheritance chain, relationships to unknown entities,
    /// inverses that do not exist, composite attributes naming an unknown composite, and
    /// configurations listing an entity the model does not have.
    public func problems() -> [ModelProblem] {
        var problems = nameProblems()
        var seen = Set<String>()
        for entity in entities where !seen.insert(entity.name).inserted {
            problems.append(ModelProblem(entity: entity.name, occurrence: 2, description: "entity \(entity.name.shownInMessage) is declared twice"))
        }
        let compositeNames = Set(composites.map(\.name))
        for entity in entities {
            let name = entity.name.shownInMessage
            if let parent = entity.parentName {
                if self.entity(named: parent) == nil {
                    problems.append(ModelProblem(entity: entity.name, description: "entity \(name) inherits from \(parent.shownInMessage), which is not in the model"))
                } else if inheritanceChain(of: entity.name).first?.parentName != nil {
                    problems.append(ModelProblem(entity: entity.name, description: "entity \(name) is part of an inheritance cycle"))
                }
            }
            var propertyNames = Set<String>()
            for property in attributes(of: entity.name).map(\.name) + relationships(of: entity.name).map(\.name)
            where !propertyNames.insert(property).inserted {
                let declaredHere = entity.attribute(named: property) != nil || entity.relationship(named: property) != nil
                problems.append(ModelProblem(entity: entity.name, property: declaredHere ? property : nil, occurrence: 2,
                                             description: "entity \(name) has two properties named \(property.shownInMessage)"))
            }
            for attribute in entity.attributes where attribute.type == .composite {
                if let composite = attribute.compositeName, !compositeNames.contains(composite) {
                    problems.append(ModelProblem(
                        entity: entity.name, property: attribute.name,
                        description: "attribute \(name).\(attribute.name.shownInMessage) uses composite \(composite.shownInMessage), which is not in the model"))
                }
            }
            for relationship in entity.relationships {
                let place = "\(name).\(relationship.name.shownInMessage)"
                guard self.entity(named: relationship.destination) != nil else {
                    problems.append(ModelProblem(
                        entity: entity.name, property: relationship.name,
                        description: "relationship \(place) points to \(relationship.destination.shownInMessage), which is not in the model"))
                    continue
                }
                if let inverse = relationship.inverseName,
                   self.relationship(inverse, of: relationship.inverseEntity ?? relationship.destination) == nil {
                    problems.append(ModelProblem(
                        entity: entity.name, property: relationship.name,
                        description: "relationship \(place) names inverse \(inverse.shownInMessage), which \(relationship.destination.shownInMessage) does not have"))
                }
            }
        }
        for configuration in configurations {
            for member in configuration.entityNames where self.entity(named: member) == nil {
                problems.append(ModelProblem(
                    configuration: configuration.name,
                    description: "configuration \(configuration.name.shownInMessage) lists entity \(member.shownInMessage), which is not in the model"))
            }
        }
        return problems
    }

    /// Names a store cannot hold: empty, or holding a NUL character, which SQLite cannot keep in a
    /// name; and configuration names holding `/` or `..`, which would put a seed store outside the
    /// store's folder (part of ``problems()``).
    public func nameProblems() -> [ModelProblem] {
        var problems: [ModelProblem] = []
        for entity in entities {
            if let reason = entity.name.unusableNameReason {
                problems.append(ModelProblem(entity: entity.name, description: "the name of entity \(entity.name.shownInMessage) \(reason)"))
            }
            for (property, kind) in entity.attributes.map({ ($0.name, "attribute") }) + entity.relationships.map({ ($0.name, "relationship") }) {
                if let reason = property.unusableNameReason {
                    problems.append(ModelProblem(
                        entity: entity.name, property: property,
                        description: "the name of \(kind) \(entity.name.shownInMessage).\(property.shownInMessage) \(reason)"))
                }
            }
        }
        for configuration in configurations {
            if let reason = configuration.name.unusableNameReason ?? configuration.name.unusableFileNamePartReason {
                problems.append(ModelProblem(configuration: configuration.name, description: "the name of configuration \(configuration.name.shownInMessage) \(reason)"))
            }
        }
        for composite in composites {
            if let reason = composite.name.unusableNameReason {
                problems.append(ModelProblem(description: "the name of composite \(composite.name.shownInMessage) \(reason)"))
            }
            for attribute in composite.attributes {
                if let reason = attribute.name.unusableNameReason {
                    problems.append(ModelProblem(
                        description: "the name of composite attribute \(composite.name.shownInMessage).\(attribute.name.shownInMessage) \(reason)"))
                }
            }
        }
        return problems
    }
}
