import Foundation
import ObjectModel
import SyncStore

/// Derives the per-record rules of one entity table from the model: required attributes and to-one
/// relationships, storage classes, min/max and regular expressions. The store turns each rule's
/// test into SQL over its table (``SyncStore/RecordTest``).
struct RecordRuleBuilder {
    /// Core Data keeps date bounds as seconds since 2001-01-01; the store keeps dates since 1970.
    static let referenceDateOffset = Date.timeIntervalBetween1970AndReferenceDate

    let context: CheckContext
    let model: ManagedModel

    /// The rules for `table`, the table of `root`'s family.
    func rules(forFamilyOf root: EntityDescription, table: String) -> [RecordRule] {
        let family = [root] + model.descendants(of: root.name)
        let concrete = family.filter { !$0.isAbstract }.map(\.name)
        var rules = [RecordRule(
            code: .recordUnknownEntity, entity: root.name, property: nil,
            test: .entity(notIn: concrete),
            message: { _, gid, value in "record \(gid) in \(table) has the entity '\(value ?? "")', which is not a concrete entity of that table" },
            hint: "the record cannot be read as any entity; restore it from a backup or delete it with SQL after taking a copy")]
        for entity in family {
            let members = context.family(of: entity.name)
            let policy = model.facts(of: entity.name).invalidRecordPolicy
            let repairHint = InvalidRecordHint.text(for: policy)
            for attribute in entity.attributes where !attribute.isTransient {
                guard let column = context.column(attribute.name, of: entity.name), column.kind == .attribute else { continue }
                rules += attributeRules(attribute, entity: entity.name, column: column, members: members, hint: repairHint)
            }
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany && !relationship.isOptional {
                guard let column = context.column(relationship.name, of: entity.name), column.kind == .toOne else { continue }
                rules.append(RecordRule(
                    code: .recordRequiredRelationship, entity: entity.name, property: relationship.name,
                    test: .isEmpty(column, entities: members),
                    message: { exact, gid, _ in "\(exact) \(gid) has no \(relationship.name) (a required relationship to \(relationship.destination))" },
                    hint: repairHint))
            }
        }
        return rules
    }

    private func attributeRules(_ attribute: AttributeDescription, entity: String, column c: StoredProperty, members: [String], hint: String) -> [RecordRule] {
        var rules: [RecordRule] = []
        let name = attribute.name
        if !attribute.isOptional {
            rules.append(RecordRule(
                code: .recordRequiredAttribute, entity: entity, property: name,
                test: .isEmpty(c, entities: members),
                message: { exact, gid, _ in "\(exact) \(gid) has no \(name) (a required attribute)" }, hint: hint))
        }
        if let test = RecordTest.holdsOtherKind(c, type: attribute.type, entities: members) {
            rules.append(RecordRule(
                code: .recordWrongType, entity: entity, property: name, test: test,
                message: { exact, gid, value in "\(exact) \(gid): \(name) holds '\(value ?? "")', which a \(attribute.type.rawValue) attribute never stores" },
                hint: "the value was written around storekeep; correct it in the app or with SQL after taking a copy"))
        }
        if let range = rangeRule(attribute, entity: entity, column: c, members: members, hint: hint) { rules.append(range) }
        if attribute.type == .string, let pattern = attribute.regularExpression, !pattern.isEmpty,
           let test = RecordTest.failsPattern(c, pattern: pattern, entities: members) {
            var rule = RecordRule(
                code: .recordPatternMismatch, entity: entity, property: name, test: test,
                message: { exact, gid, value in "\(exact) \(gid): \(name) '\(value ?? "")' does not match the pattern \(pattern)" }, hint: hint)
            rule.pattern = pattern
            rules.append(rule)
        }
        return rules
    }

    /// The min/max rule: values for numbers and dates, lengths for strings, the type's range for integers.
    private func rangeRule(_ attribute: AttributeDescription, entity: String, column c: StoredProperty, members: [String], hint: String) -> RecordRule? {
        let name = attribute.name
        var low = attribute.minValueString.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        var high = attribute.maxValueString.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let what: String
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            if let limits = attribute.type.integerRange, attribute.type != .integer64 {
                low = max(low ?? Double(limits.lowerBound), Double(limits.lowerBound))
                high = min(high ?? Double(limits.upperBound), Double(limits.upperBound))
            }
            what = "value"
        case .double, .float, .decimal:
            what = "value"
        case .date:
            low = low.map { $0 + Self.referenceDateOffset }
            high = high.map { $0 + Self.referenceDateOffset }
            what = "date (seconds since 1970)"
        case .string:
            what = "length"
        default:
            return nil
        }
        guard let test = RecordTest.outOfRange(c, type: attribute.type, below: low, above: high, entities: members) else { return nil }
        let lowText = low.flatMap(Self.number) ?? "-∞"
        let highText = high.flatMap(Self.number) ?? "∞"
        var rule = RecordRule(
            code: .recordValueOutOfRange, entity: entity, property: name, test: test,
            message: { exact, gid, value in
                let shown = attribute.type == .string ? "has \(value ?? "?") characters" : "is \(value ?? "")"
                return "\(exact) \(gid): \(name) \(shown), outside the allowed \(what) \(lowText)…\(highText)"
            },
            hint: hint)
        rule.minimum = lowText == "-∞" ? nil : lowText
        rule.maximum = highText == "∞" ? nil : highText
        return rule
    }

    /// A bound as a finding shows it (as the store's test compares with it), or `nil` for NaN and infinities.
    static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 9e15 { return String(Int64(value)) }
        return String(value)
    }
}
