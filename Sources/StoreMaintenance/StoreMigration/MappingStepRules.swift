import Foundation
import LegacyFormats
import ObjectModel

/// Turns an Xcode mapping model into the rules of the step between its two versions, the step
/// file's rules overriding them: one block per entity mapping (`entity: D, from: S`), one rule per
/// destination property the mapping gives a value, and a `drop` block for every source entity no
/// entity mapping takes. What the mapping does not map gets no value, as in Core Data.
///
/// Value expressions read: `$source.x` and `$source.a.b.x` (through to-one relationships),
/// constants, `FUNCTION($source.x, "stringValue")` and the other value conversions of
/// ``conversion(selector:from:to:)``, and for relationships `$source.r`, `$source.a.b` and
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" or
/// "destinationInstancesForSourceRelationshipNamed:sourceInstances:", name, $source.…)`. A property
/// mapping without a stored expression takes Xcode's default: the source property of the same name.
/// An entity mapping that names a custom migration policy class, or filters its source records,
/// needs a block in the step file for its destination entity; a property whose expression is of
/// another form needs a rule of its own. Everything else of the mapping still applies.
struct MappingStepRules {
    let mapping: XcodeMappingModel
    let old: ManagedModel
    let new: ManagedModel
    /// The operator's step file for the same two versions, when there is one.
    let stepFile: StepFile?
    /// Where the step file is or would be.
    let stepFilePath: String
    /// What the mapping asks that storekeep cannot do without a step file rule.
    private(set) var problems: [String] = []
    private var pending: [PendingInverse] = []

    init(mapping: XcodeMappingModel, old: ManagedModel, new: ManagedModel, stepFile: StepFile?, stepFilePath: String) {
        self.mapping = mapping
        self.old = old
        self.new = new
        self.stepFile = stepFile
        self.stepFilePath = stepFilePath
    }

    /// The rules: a step file holding the mapping's rules with the operator's step file over them.
    mutating func rules() -> StepFile {
        let real = stepFile?.entities ?? []
        var realByTarget: [String: StepFile.EntityRule] = [:]
        for block in real { if let entity = block.entity, realByTarget[entity] == nil { realByTarget[entity] = block } }
        let realDrops = Set(real.filter(\.drop).compactMap(\.from))
        var blocks: [StepFile.EntityRule] = []
        var taken = Set<String>()
        var targets: [String] = []
        var byTarget: [String: [XcodeEntityMapping]] = [:]
        for entityMapping in mapping.entityMappings where entityMapping.kind == .mapped {
            guard let source = entityMapping.sourceEntity, let target = entityMapping.destinationEntity else { continue }
            guard old.entity(named: source) != nil, new.entity(named: target) != nil else {
                problems.append("entity mapping \(entityMapping.name) maps \(source) to \(target), but '\(old.versionName)' or '\(new.versionName)' has no such entity")
                continue
            }
            if byTarget[target] == nil { targets.append(target) }
            byTarget[target, default: []].append(entityMapping)
        }
        for target in targets {
            let candidates = byTarget[target] ?? []
            if let override = realByTarget[target] {
                let source = override.from ?? (candidates.contains { $0.sourceEntity == target } ? target : candidates[0].sourceEntity ?? target)
                var block = candidates.first { $0.sourceEntity == source }.map { self.block(for: $0, checked: false) }
                    ?? StepFile.EntityRule(entity: target, from: source, drop: false, attributes: [], relationships: [], line: override.line)
                block = overlay(override, on: block)
                block.from = source
                blocks.append(block)
                taken.insert(source)
                for other in candidates where other.sourceEntity != source {
                    guard let otherSource = other.sourceEntity, !realDrops.contains(otherSource) else { continue }
                    problems.append("entity mappings \(candidates.map(\.name).joined(separator: " and ")) all write \(target); the step file's block takes records of \(source): "
                        + "drop the others' (- from: \(otherSource)\n  drop: true)")
                }
                continue
            }
            guard candidates.count == 1, let only = candidates.first, let source = only.sourceEntity else {
                problems.append("entity mappings \(candidates.map(\.name).joined(separator: " and ")) all write \(target): records of two entities into one are not carried over "
                    + "(give \(target) a block in the step file naming the entity it takes records from, and drop the others)")
                continue
            }
            if let policy = only.migrationPolicyClass {
                problems.append("entity mapping \(only.name) names the custom migration policy \(policy), code storekeep cannot run: "
                    + "give \(target) a block in the step file (its rules replace what the policy does; the rest of the mapping still applies)")
            }
            if let filter = only.sourceExpression {
                problems.append("entity mapping \(only.name) takes only some \(source) records (\(filter.text)): give \(target) a block in the step file")
            }
            blocks.append(block(for: only, checked: true))
            taken.insert(source)
        }
        for block in real where block.entity.map({ byTarget[$0] == nil }) ?? false {
            blocks.append(block)
            if let from = block.from ?? block.entity { taken.insert(from) }
        }
        for block in real where block.drop { blocks.append(block) }
        for waiting in pending {
            // Covered when the block that takes the holder's records fills the new inverse from the old to-one.
            let covered = blocks.contains { block in
                guard let from = block.from ?? block.entity, old.entity(from, isKindOf: waiting.holder) || old.entity(waiting.holder, isKindOf: from),
                      let newInverse = waiting.newInverse else { return false }
                return block.relationships.contains { $0.relationship == newInverse && ($0.from == waiting.inverse || $0.path?.first == waiting.inverse) }
            }
            if !covered {
                problems.append("entity mapping \(waiting.mapping): \(waiting.place) takes its members from \(waiting.holder).\(waiting.inverse), which keeps them in "
                    + "'\(old.versionName)'; map \(waiting.newHolder).\(waiting.newInverse ?? "its inverse") from \(waiting.inverse) instead, or give \(waiting.place) a rule in the step file")
            }
        }
        for entity in old.entities where !taken.contains(entity.name) && !realDrops.contains(entity.name) {
            blocks.append(StepFile.EntityRule(entity: nil, from: entity.name, drop: true, attributes: [], relationships: [], line: 0))
        }
        return StepFile(path: stepFile?.path ?? stepFilePath, checksum: stepFile?.checksum ?? "", from: old.versionName,
                        to: new.versionName, line: stepFile?.line ?? 0, entities: blocks)
    }

    /// The operator's block over the mapping's: its rules replace the mapping's for the same properties.
    private func overlay(_ override: StepFile.EntityRule, on block: StepFile.EntityRule) -> StepFile.EntityRule {
        var merged = block
        let attributes = Set(override.attributes.map(\.attribute))
        let relationships = Set(override.relationships.map(\.relationship))
        merged.attributes = block.attributes.filter { !attributes.contains($0.attribute) } + override.attributes
        merged.relationships = block.relationships.filter { !relationships.contains($0.relationship) } + override.relationships
        merged.line = override.line
        return merged
    }

    /// The rules of one entity mapping; `checked`: report expressions storekeep cannot read (an entity
    /// with a block in the step file is not checked: that block decides).
    private mutating func block(for entityMapping: XcodeEntityMapping, checked: Bool) -> StepFile.EntityRule {
        let source = entityMapping.sourceEntity ?? ""
        let target = entityMapping.destinationEntity ?? ""
        var block = StepFile.EntityRule(entity: target, from: source, drop: false, attributes: [], relationships: [], line: 0)
        let overrides = stepFile?.entities.first { $0.entity == target }
        for attribute in new.attributes(of: target) where !attribute.isTransient {
            let mapped = entityMapping.attributeMappings.first { $0.name == attribute.name }
            let expression = mapped?.storedExpression ?? defaultExpression(for: attribute.name, source: source, relationship: false)
            guard let expression else { continue }
            if let rule = attributeRule(attribute, expression: expression, source: source) {
                block.attributes.append(rule)
            } else if checked && overrides?.attributes.contains(where: { $0.attribute == attribute.name }) != true {
                problems.append("entity mapping \(entityMapping.name): \(target).\(attribute.name)'s value expression \(expression.text) is not one storekeep reads "
                    + "(give \(target).\(attribute.name) a rule in the step file)")
            }
        }
        for relationship in new.relationships(of: target) where !relationship.isTransient && StepInference.isKeptByOwner(relationship, in: new) {
            let mapped = entityMapping.relationshipMappings.first { $0.name == relationship.name }
            var expression = mapped?.storedExpression
            if expression == nil, let keyPath = mapped?.sourceKeyPath {
                expression = Self.keyPathExpression(keyPath)
            }
            expression = expression ?? defaultExpression(for: relationship.name, source: source, relationship: true)
            guard let expression else { continue }
            switch relationshipRule(relationship, expression: expression, source: source) {
            case .rule(let rule):
                block.relationships.append(rule)
            case .empty:
                block.relationships.append(StepFile.RelationshipRule(relationship: relationship.name, from: nil, drop: true, line: 0))
            case .fromInverse(let inverse, let holder):
                if checked && overrides?.relationships.contains(where: { $0.relationship == relationship.name }) != true {
                    pending.append(PendingInverse(place: "\(target).\(relationship.name)", mapping: entityMapping.name, inverse: inverse, holder: holder,
                                                  newInverse: relationship.inverseName, newHolder: relationship.destination))
                }
            case .unreadable:
                if checked && overrides?.relationships.contains(where: { $0.relationship == relationship.name }) != true {
                    problems.append("entity mapping \(entityMapping.name): \(target).\(relationship.name)'s value expression \(expression.text) is not one storekeep reads "
                        + "(give \(target).\(relationship.name) a rule in the step file)")
                }
            }
        }
        return block
    }

    /// Xcode's expression for a property mapping without one: the source property of the same name.
    private func defaultExpression(for name: String, source: String, relationship: Bool) -> MappingExpression? {
        let exists = relationship
            ? old.relationship(name, of: source).map { !$0.isTransient } ?? false
            : old.attribute(name, of: source).map { !$0.isTransient } ?? false
        return exists ? .keyPath(base: .variable("source"), path: [name]) : nil
    }

    /// `$source.a.b` written in Xcode's relationship key path field.
    static func keyPathExpression(_ text: String) -> MappingExpression {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".").map(String.init)
        guard parts.first == "$source" else { return .unsupported("key path \(text)") }
        return .keyPath(base: .variable("source"), path: Array(parts.dropFirst()))
    }

    private func attributeRule(_ attribute: AttributeDescription, expression: MappingExpression, source: String) -> StepFile.AttributeRule? {
        var rule = StepFile.AttributeRule(attribute: attribute.name, from: nil, conversion: nil, value: nil, valueForEmpty: nil, drop: false, line: 0)
        switch expression {
        case .constant(let constant):
            guard let text = Self.text(of: constant) else {
                rule.drop = true
                return rule
            }
            rule.value = text
            return rule
        case .keyPath:
            guard let path = expression.sourceKeyPath, !path.isEmpty, !path.contains(where: { $0.hasPrefix("@") }) else { return nil }
            if path.count == 1 {
                guard let from = old.attribute(path[0], of: source), !from.isTransient else { return nil }
                rule.from = path[0]
            } else {
                rule.path = path
            }
            return rule
        case .function(let target?, let selector, let arguments) where arguments.isEmpty:
            guard let path = target.sourceKeyPath, path.count == 1, let from = old.attribute(path[0], of: source), !from.isTransient,
                  let conversion = Self.conversion(selector: selector, from: from.type, to: attribute.type) else { return nil }
            rule.from = path[0]
            rule.conversion = conversion == .same || conversion == .widen || conversion == .numeric ? nil : conversion
            return rule
        default:
            return nil
        }
    }

    /// What a relationship mapping's expression makes of the relationship.
    private enum RelationshipOutcome {
        case rule(StepFile.RelationshipRule)
        /// The expression names an entity mapping that does not migrate the old members: no members.
        case empty
        /// The old relationship is kept by its inverse's records (`inverse`, a to-one of `holder`):
        /// its members come over only when the new relationship's inverse is mapped from that to-one.
        case fromInverse(inverse: String, holder: String)
        case unreadable
    }

    /// A relationship whose members the mapping takes from the other side, checked once every block is known.
    private struct PendingInverse {
        var place: String
        var mapping: String
        /// The old to-one that keeps the members, and the old entity that has it.
        var inverse: String
        var holder: String
        /// The new relationship's inverse, and its destination entity.
        var newInverse: String?
        var newHolder: String
    }

    private func relationshipRule(_ relationship: RelationshipDescription, expression: MappingExpression, source: String) -> RelationshipOutcome {
        var keyPath = expression
        var mappingName: String?
        if case .function(let target?, let selector, let arguments) = expression, target == .variable("manager"), arguments.count == 2 {
            guard selector == "destinationInstancesForEntityMappingNamed:sourceInstances:"
                    || selector == "destinationInstancesForSourceRelationshipNamed:sourceInstances:" else { return .unreadable }
            if selector.hasPrefix("destinationInstancesForEntityMappingNamed"), case .constant(.string(let name)) = arguments[0] { mappingName = name }
            keyPath = arguments[1]
        }
        guard let path = keyPath.sourceKeyPath, !path.isEmpty, !path.contains(where: { $0.hasPrefix("@") }) else { return .unreadable }
        var current = source
        for (index, hop) in path.enumerated() {
            guard let step = old.relationship(hop, of: current), !step.isTransient, index == path.count - 1 || !step.isToMany else { return .unreadable }
            current = step.destination
        }
        if let mappingName {
            guard let named = mapping.entityMapping(named: mappingName), let from = named.sourceEntity,
                  old.entity(from, isKindOf: current) || old.entity(current, isKindOf: from) else { return .empty }
        }
        if path.count == 1, let old = old.relationship(path[0], of: source), !StepInference.isKeptByOwner(old, in: self.old),
           let inverse = old.inverseName {
            return .fromInverse(inverse: inverse, holder: old.destination)
        }
        var rule = StepFile.RelationshipRule(relationship: relationship.name, from: nil, drop: false, line: 0)
        if path.count == 1 { rule.from = path[0] } else { rule.path = path }
        return .rule(rule)
    }

    /// The conversion a selector called on a source value makes (`FUNCTION($source.count, "stringValue")`).
    static func conversion(selector: String, from old: AttributeType, to new: AttributeType) -> ValueConversion? {
        let candidate: ValueConversion?
        switch selector {
        case "stringValue", "description":
            candidate = old == .string ? .same : (old.isInteger ? .integerToString : (old == .double || old == .float ? .doubleToString : nil))
        case "intValue", "integerValue", "longLongValue", "longValue", "shortValue":
            candidate = old == .string ? .stringToInteger : (old == .double || old == .float ? .doubleToInteger : ValueConversion.inferred(from: old, to: new))
        case "doubleValue", "floatValue":
            candidate = old == .string ? .stringToFloatingPoint : ValueConversion.inferred(from: old, to: new)
        case "boolValue":
            candidate = old.isInteger ? .integerToBoolean : ValueConversion.inferred(from: old, to: new)
        default:
            candidate = nil
        }
        guard let candidate, candidate.applies(from: old, to: new) else { return nil }
        return candidate
    }

    /// A constant as a step file writes it (`nil` for `nil`).
    static func text(of constant: MappingExpression.Constant) -> String? {
        switch constant {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let seconds):
            let formatter = ISO8601DateFormatter()
            return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
        case .null: return nil
        }
    }
}
