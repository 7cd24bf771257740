import ObjectModel

extension StepInference {
    /// The state of one inference: matches so far, problems and changes in words.
    struct Work {
        let old: ManagedModel
        let new: ManagedModel
        let file: StepFile?
        /// Whether properties no rule mentions are matched by renaming identifier and name (a lightweight
        /// step), or left empty (a mapping model's step: what it does not map gets no value).
        var infersUnmentioned = true
        /// Previous-version entity → next-version entity.
        var targetOf: [String: String] = [:]
        /// Entity rules of the step file, by next-version entity.
        var rules: [String: StepFile.EntityRule] = [:]
        var problems: [String] = []
        var changes: [String] = []
        /// Relationships of the entity being worked on filled through key paths (next name → path).
        var relationshipPaths: [String: [String]] = [:]
        /// To-many relationships of the entity being worked on filled from an old to-one.
        var promotedToMany: Set<String> = []
        /// What is known of the previous version's records (the source's own version only): a new
        /// required attribute without a default does not stop the step of an entity without records,
        /// nor does an attribute becoming required when no record lacks a value, as neither stops
        /// Core Data's, which only fails on a record without a value.
        var records = SourceRecordFacts.unknown
        /// Relationships that become many-to-many from a to-many kept by a to-one inverse: their
        /// members come over only when every record of their destination fills the new inverse from
        /// that old to-one (checked once every entity is planned).
        var derivedFromInverse: [DerivedFromInverse] = []

        /// A relationship whose members, in the previous version, were its to-one inverse's.
        struct DerivedFromInverse {
            /// `Entity.relationship` of the next version, for messages.
            var place: String
            /// The next version's inverse (to-many now) and the entity declaring it.
            var newInverse: String
            var newHolder: String
            /// The previous version's inverse (the to-one the members come from).
            var oldInverse: String
        }

        init(old: ManagedModel, new: ManagedModel, file: StepFile?) {
            self.old = old
            self.new = new
            self.file = file
        }

        func fileError(_ line: Int, _ problem: String) -> StepFileError {
            StepFileError(path: file?.path ?? "?", line: line, problem: problem)
        }

        mutating func note(_ change: String) {
            if !changes.contains(change) { changes.append(change) }
        }

        /// Matches entities: the file's blocks first, then by identifier, then by name.
        mutating func matchEntities() throws {
            var dropped = Set<String>()
            for rule in file?.entities ?? [] {
                if rule.drop, let from = rule.from {
                    guard old.entity(named: from) != nil else { throw fileError(rule.line, "there is no entity named '\(from)' in '\(old.versionName)'") }
                    dropped.insert(from)
                    note("entity \(from) dropped")
                    continue
                }
                guard let entity = rule.entity, new.entity(named: entity) != nil else {
                    throw fileError(rule.line, "there is no entity named '\(rule.entity ?? "?")' in '\(new.versionName)'")
                }
                let source = rule.from ?? entity
                guard old.entity(named: source) != nil else { throw fileError(rule.line, "there is no entity named '\(source)' in '\(old.versionName)'") }
                if let other = targetOf[source] {
                    throw fileError(rule.line, "\(source) is already mapped to \(other); an entity's records go to one entity")
                }
                guard rules[entity] == nil else { throw fileError(rule.line, "entity \(entity) has two blocks") }
                rules[entity] = rule
                targetOf[source] = entity
            }
            for entity in new.entities where rules[entity.name] == nil {
                guard infersUnmentioned else {
                    note("entity \(entity.name) gets no records from the mapping model")
                    continue
                }
                let key = StepInference.identifier(name: entity.name, elementID: entity.elementID)
                let match = old.entities.first { StepInference.identifier(name: $0.name, elementID: $0.elementID) == key }
                    ?? old.entity(named: entity.name)
                guard let match, !dropped.contains(match.name) else {
                    note("entity \(entity.name) added")
                    continue
                }
                if let other = targetOf[match.name] {
                    problems.append("entities \(other) and \(entity.name) both match \(match.name) (an entity split is not inferred)")
                    continue
                }
                targetOf[match.name] = entity.name
                if match.name != entity.name { note("entity \(match.name) renamed to \(entity.name)") }
            }
            for entity in old.entities where targetOf[entity.name] == nil && !dropped.contains(entity.name) {
                note("entity \(entity.name) removed")
            }
        }

        /// The attribute steps of one concrete entity pair.
        mutating func attributes(from source: String, to target: String) throws -> [AttributeStep] {
            let oldAttributes = old.attributes(of: source).filter { !$0.isTransient }
            let newAttributes = new.attributes(of: target).filter { !$0.isTransient }
            var ruleOf: [String: StepFile.AttributeRule] = [:]
            for rule in rules[target]?.attributes ?? [] {
                guard newAttributes.contains(where: { $0.name == rule.attribute }) else {
                    throw fileError(rule.line, "entity \(target) of '\(new.versionName)' has no stored attribute named '\(rule.attribute)'")
                }
                ruleOf[rule.attribute] = rule
            }
            var used = Set<String>()
            var steps: [AttributeStep] = []
            for attribute in newAttributes {
                let rule = ruleOf[attribute.name]
                let place = "\(target).\(attribute.name)"
                if let rule, let text = rule.value {
                    guard let value = StepValueParser.value(of: text, as: attribute.type) else {
                        throw fileError(rule.line, "\(place): '\(text)' is not a \(attribute.type.rawValue) value")
                    }
                    steps.append(AttributeStep(name: attribute.name, type: attribute.type, origin: .constant(value)))
                    note("\(place) set to \(text)")
                    continue
                }
                if let rule, let generator = rule.generator {
                    guard generator.types.contains(attribute.type) else {
                        throw fileError(rule.line, "\(place): \(generator.rawValue) makes \(generator.types.map(\.rawValue).joined(separator: " or ")) values, not \(attribute.type.rawValue)")
                    }
                    steps.append(AttributeStep(name: attribute.name, type: attribute.type, origin: .generated(generator)))
                    note("\(place) generated per record (\(generator.rawValue))")
                    continue
                }
                if let rule, let path = rule.path, path.count > 1 {
                    if let step = pathStep(path, from: source, to: attribute, conversion: rule.conversion, place: place) { steps.append(step) }
                    continue
                }
                var match: AttributeDescription?
                if let from = rule?.from {
                    guard let named = oldAttributes.first(where: { $0.name == from }) else {
                        throw fileError(rule?.line ?? 0, "entity \(source) of '\(old.versionName)' has no stored attribute named '\(from)'")
                    }
                    match = named
                } else if infersUnmentioned {
                    let key = StepInference.identifier(name: attribute.name, elementID: attribute.elementID)
                    match = oldAttributes.first { StepInference.identifier(name: $0.name, elementID: $0.elementID) == key }
                        ?? oldAttributes.first { $0.name == attribute.name }
                } else if rule == nil {
                    steps.append(AttributeStep(name: attribute.name, type: attribute.type, origin: .modelDefault))
                    note("\(place) gets no value from the mapping model")
                    continue
                }
                if rule?.drop == true {
                    if let match { used.insert(match.name) }
                    steps.append(AttributeStep(name: attribute.name, type: attribute.type, origin: .modelDefault))
                    note("\(place): old values dropped")
                    continue
                }
                guard let match else {
                    if let rule { throw fileError(rule.line, "\(place): no attribute of \(source) matches it; name one with 'from:'") }
                    if attribute.isOptional || attribute.defaultValue != nil {
                        steps.append(AttributeStep(name: attribute.name, type: attribute.type, origin: .modelDefault))
                        note("\(place) added")
                    } else if records.emptyEntities.contains(source) {
                        steps.append(AttributeStep(name: attribute.name, type: attribute.type, origin: .modelDefault))
                        note("\(place) added, required without a default (\(source) has no records to give it a value)")
                    } else {
                        let generated = ValueGenerator.allCases.filter { $0.madeFor == attribute.type }.map { "generate: \($0.rawValue)" }
                        let holders = records.recordCounts[source].map { count in
                            ": \(count == 1 ? "the one record" : "the \(count) records") of \(source) would have none, and Core Data's own migration fails on them too"
                        } ?? ""
                        problems.append("\(place) is new, required and has no default value\(holders) (give it a constant"
                                        + (generated.isEmpty ? "" : ", or a value per record with \(generated.joined(separator: " or "))") + ")")
                    }
                    continue
                }
                used.insert(match.name)
                if let step = try copyStep(from: match, of: source, to: attribute, rule: rule, place: place) { steps.append(step) }
            }
            for attribute in oldAttributes where !used.contains(attribute.name) {
                note("\(source).\(attribute.name) removed")
            }
            return steps
        }

        private mutating func copyStep(from match: AttributeDescription, of source: String, to attribute: AttributeDescription,
                                       rule: StepFile.AttributeRule?, place: String) throws -> AttributeStep? {
            let conversion: ValueConversion
            if let declared = rule?.conversion {
                guard declared.applies(from: match.type, to: attribute.type) else {
                    throw fileError(rule?.line ?? 0, "\(place): \(declared.rawValue) does not turn \(match.type.rawValue) into \(attribute.type.rawValue)")
                }
                conversion = declared
                note("\(place) converted from \(match.type.rawValue) (\(declared.rawValue))")
            } else if let inferred = ValueConversion.inferred(from: match.type, to: attribute.type),
                      match.compositeName == attribute.compositeName {
                conversion = inferred
                if inferred == .widen { note("\(place) widened from \(match.type.rawValue) to \(attribute.type.rawValue)") }
            } else {
                let what = match.type == attribute.type ? "composite type changes from \(match.compositeName ?? "-") to \(attribute.compositeName ?? "-")"
                    : "type changes from \(match.type.rawValue) to \(attribute.type.rawValue), which is not a widening"
                problems.append("\(place): \(what) (declare a conversion, or drop the old values)")
                return nil
            }
            var valueForEmpty: AttributeValue?
            if let text = rule?.valueForEmpty {
                guard let value = StepValueParser.value(of: text, as: attribute.type) else {
                    throw fileError(rule?.line ?? 0, "\(place): default '\(text)' is not a \(attribute.type.rawValue) value")
                }
                valueForEmpty = value
            } else if match.isOptional && !attribute.isOptional && !records.emptyEntities.contains(source) {
                if let value = attribute.defaultValue {
                    valueForEmpty = value
                    note("\(place) now required (empty values take its default)")
                } else {
                    // Core Data fails only on a record that holds no value: count them.
                    switch try records.emptyValueCount(of: match.name, entity: source) {
                    case 0?:
                        note("\(place) now required (no record of \(source) is without a value)")
                    case let count?:
                        problems.append("\(place) becomes required and has no default value, and \(count) record\(count == 1 ? "" : "s") of \(source) "
                                        + "hold\(count == 1 ? "s" : "") no value for it (give one with 'default:', or fill them before migrating)")
                        return nil
                    case nil:
                        problems.append("\(place) becomes required and has no default value for empty old values (give one with 'default:')")
                        return nil
                    }
                }
            }
            if match.name != attribute.name { note("\(place.split(separator: ".")[0]).\(match.name) renamed to \(attribute.name)") }
            return AttributeStep(name: attribute.name, type: attribute.type, origin: .copy(from: match.name, conversion: conversion),
                                 valueForEmpty: valueForEmpty)
        }

        /// The step of an attribute filled from the end of a key path through to-one relationships of
        /// the previous version (a mapping model's `$source.continent.code`).
        private mutating func pathStep(_ path: [String], from source: String, to attribute: AttributeDescription,
                                       conversion declared: ValueConversion?, place: String) -> AttributeStep? {
            guard let holder = toOneDestination(of: path.dropLast(), from: source),
                  let last = path.last, let end = old.attribute(last, of: holder), !end.isTransient else {
                problems.append("\(place): the key path \(path.joined(separator: ".")) does not lead through to-one relationships of \(source) to a stored attribute")
                return nil
            }
            guard let conversion = declared ?? ValueConversion.inferred(from: end.type, to: attribute.type) else {
                problems.append("\(place): \(path.joined(separator: ".")) is \(end.type.rawValue), which does not become \(attribute.type.rawValue) (give the attribute a rule)")
                return nil
            }
            note("\(place) taken from \(source).\(path.joined(separator: "."))")
            return AttributeStep(name: attribute.name, type: attribute.type, origin: .path(path, conversion: conversion))
        }

        /// The entity reached from `source` through the to-one relationships `hops` of the previous
        /// version, or `nil` when a hop is not a stored to-one relationship.
        func toOneDestination(of hops: ArraySlice<String>, from source: String) -> String? {
            var current = source
            for hop in hops {
                guard let relationship = old.relationship(hop, of: current), !relationship.isToMany, !relationship.isTransient else { return nil }
                current = relationship.destination
            }
            return current
        }

        /// The relationships kept by one concrete entity pair's records: next name → previous name.
        mutating func relationships(from source: String, to target: String) throws -> [String: String] {
            let oldRelationships = old.relationships(of: source).filter { !$0.isTransient }
            let newRelationships = new.relationships(of: target).filter { !$0.isTransient }
            var ruleOf: [String: StepFile.RelationshipRule] = [:]
            for rule in rules[target]?.relationships ?? [] {
                guard newRelationships.contains(where: { $0.name == rule.relationship }) else {
                    throw fileError(rule.line, "entity \(target) of '\(new.versionName)' has no stored relationship named '\(rule.relationship)'")
                }
                ruleOf[rule.relationship] = rule
            }
            var kept: [String: String] = [:]
            var used = Set<String>()
            for relationship in newRelationships {
                let rule = ruleOf[relationship.name]
                let place = "\(target).\(relationship.name)"
                if let rule, let path = rule.path, path.count > 1 {
                    guard let reached = toOneDestination(of: path[...], from: source), let destination = targetOf[reached],
                          new.entity(destination, isKindOf: relationship.destination) else {
                        problems.append("\(place): the key path \(path.joined(separator: ".")) does not lead through to-one relationships of \(source) to a record that becomes a \(relationship.destination)")
                        continue
                    }
                    guard StepInference.isKeptByOwner(relationship, in: new) else { continue }
                    relationshipPaths[relationship.name] = path
                    if relationship.isToMany { promotedToMany.insert(relationship.name) }
                    note("\(place) taken from \(source).\(path.joined(separator: "."))")
                    continue
                }
                var match: RelationshipDescription?
                if let from = rule?.from {
                    guard let named = oldRelationships.first(where: { $0.name == from }) else {
                        throw fileError(rule?.line ?? 0, "entity \(source) of '\(old.versionName)' has no stored relationship named '\(from)'")
                    }
                    match = named
                } else if infersUnmentioned {
                    let key = StepInference.identifier(name: relationship.name, elementID: relationship.elementID)
                    match = oldRelationships.first { StepInference.identifier(name: $0.name, elementID: $0.elementID) == key }
                        ?? oldRelationships.first { $0.name == relationship.name }
                } else if rule == nil {
                    continue
                }
                if rule?.drop == true {
                    if let match { used.insert(match.name) }
                    note("\(place): old members dropped")
                    continue
                }
                guard let match else {
                    note("\(place) added")
                    continue
                }
                used.insert(match.name)
                if match.isToMany && !relationship.isToMany {
                    problems.append("\(place) changes from to-many to to-one, which Core Data does not infer either (drop the old members)")
                    continue
                }
                if !match.isToMany && relationship.isToMany {
                    // Core Data infers this: the old target becomes the only member.
                    guard let destination = targetOf[match.destination], new.entity(destination, isKindOf: relationship.destination),
                          StepInference.isKeptByOwner(relationship, in: new) else {
                        problems.append("\(place) changes from to-one to a to-many kept by its inverse's records (drop the old members)")
                        continue
                    }
                    kept[relationship.name] = match.name
                    promotedToMany.insert(relationship.name)
                    note("\(place) changes from to-one to to-many (the old target becomes its only member)")
                    continue
                }
                guard let destination = targetOf[match.destination], new.entity(destination, isKindOf: relationship.destination) else {
                    problems.append("\(place): its destination changes from \(match.destination) to \(relationship.destination) (drop the old members)")
                    continue
                }
                let keptBefore = StepInference.isKeptByOwner(match, in: old)
                let keptNow = StepInference.isKeptByOwner(relationship, in: new)
                if keptBefore && keptNow {
                    kept[relationship.name] = match.name
                } else if !keptBefore && keptNow, let oldInverse = match.inverseName, let newInverse = relationship.inverseName {
                    // One-to-many becoming many-to-many (Core Data infers it): the members come over
                    // with the other side's to-one becoming a to-many; those an ordered old side's
                    // records hold come with their order.
                    kept[relationship.name] = match.name
                    derivedFromInverse.append(DerivedFromInverse(place: place, newInverse: newInverse,
                                                                 newHolder: relationship.inverseEntity ?? relationship.destination, oldInverse: oldInverse))
                    note("\(place) becomes many-to-many (its members come from \(relationship.destination).\(newInverse))")
                } else if keptBefore != keptNow {
                    problems.append("\(place) is stored differently (a join table in one version, its to-one inverse in the other) (drop the old members)")
                    continue
                }
                if match.name != relationship.name { note("\(source).\(match.name) renamed to \(relationship.name)") }
            }
            // A mapping model's step carries a relationship kept by its inverse through that inverse.
            for relationship in oldRelationships where !used.contains(relationship.name)
                && (infersUnmentioned || StepInference.isKeptByOwner(relationship, in: old)) {
                note("\(source).\(relationship.name) removed")
            }
            return kept
        }
    }
}
