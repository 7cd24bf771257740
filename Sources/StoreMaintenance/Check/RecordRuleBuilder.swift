import Foundation
import ObjectModel

/// Derives the per-record rules of one entity table from the model: required attributes and to-one
/// relationships, storage classes, min/max and regular expressions.
struct RecordRuleBuilder {
    /// Core Data keeps date bounds as seconds since 2001-01-01; the store keeps dates since 1970.
    static let referenceDateOffset = Date.timeIntervalBetween1970AndReferenceDate

    let context: CheckContext
    let model: ManagedModel

    /// The rules for the table of `root`'s family.
    func rules(forFamilyOf root: EntityDescription) -> [RecordRule] {
        let family = [root] + model.descendants(of: root.name)
        let concrete = family.filter { !$0.isAbstract }.map(\.name)
        var rules = [RecordRule(
            code: .recordUnknownEntity, entity: root.name, property: nil,
            condition: "_entity NOT IN \(CheckSQL.list(concrete))", valueColumn: "_entity",
            message: { _, gid, value in "record \(gid) in e_\(root.name) has the entity '\(value ?? "")', which is not a concrete entity of that table" },
            hint: "the record cannot be read as any entity; restore it from a backup or delete it with SQL after taking a copy")]
        for entity in family {
            let members = CheckSQL.list(context.family(of: entity.name))
            let policy = model.facts(of: entity.name).invalidRecordPolicy
            let repairHint = InvalidRecordHint.text(for: policy)
            for attribute in entity.attributes where !attribute.isTransient {
                guard let column = context.column(attribute.name, of: entity.name), column.kind == .attribute else { continue }
                rules += attributeRules(attribute, entity: entity.name, column: CheckSQL.identifier(column.column),
                                        members: members, hint: repairHint)
            }
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany && !relationship.isOptional {
                guard let column = context.column(relationship.name, of: entity.name), column.kind == .toOne else { continue }
                rules.append(RecordRule(
                    code: .recordRequiredRelationship, entity: entity.name, property: relationship.name,
                    condition: "_entity IN \(members) AND \(CheckSQL.identifier(column.column)) IS NULL",
                    message: { exact, gid, _ in "\(exact) \(gid) has no \(relationship.name) (a required relationship to \(relationship.destination))" },
                    hint: repairHint))
            }
        }
        return rules
    }

    private func attributeRules(_ attribute: AttributeDescription, entity: String, column c: String, members: String, hint: String) -> [RecordRule] {
        var rules: [RecordRule] = []
        let name = attribute.name
        if !attribute.isOptional {
            rules.append(RecordRule(
                code: .recordRequiredAttribute, entity: entity, property: name,
                condition: "_entity IN \(members) AND \(c) IS NULL",
                message: { exact, gid, _ in "\(exact) \(gid) has no \(name) (a required attribute)" }, hint: hint))
        }
        if let classes = Self.storageClasses(of: attribute.type) {
            rules.append(RecordRule(
                code: .recordWrongType, entity: entity, property: name,
                condition: "_entity IN \(members) AND \(c) IS NOT NULL AND typeof(\(c)) NOT IN \(CheckSQL.list(classes))", valueColumn: c,
                message: { exact, gid, value in "\(exact) \(gid): \(name) holds '\(value ?? "")', which a \(attribute.type.rawValue) attribute never stores" },
                hint: "the value was written around storekeep; correct it in the app or with SQL after taking a copy"))
        }
        if let range = rangeRule(attribute, entity: entity, column: c, members: members, hint: hint) { rules.append(range) }
        if attribute.type == .string, let pattern = attribute.regularExpression, !pattern.isEmpty, PatternMatcher.isValid(pattern) {
            var rule = RecordRule(
                code: .recordPatternMismatch, entity: entity, property: name,
                condition: "_entity IN \(members) AND typeof(\(c)) = 'text' AND \(PatternMatcher.functionName)(\(CheckSQL.literal(pattern)), \(c))",
                valueColumn: c,
                message: { exact, gid, value in "\(exact) \(gid): \(name) '\(value ?? "")' does not match the pattern \(pattern)" }, hint: hint)
            rule.pattern = pattern
            rules.append(rule)
        }
        return rules
    }

    /// The min/max rule: values for numbers and dates, lengths for strings, the type's range for integers.
    private func rangeRule(_ attribute: AttributeDescription, entity: String, column c: String, members: String, hint: String) -> RecordRule? {
        let name = attribute.name
        var low = attribute.minValueString.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        var high = attribute.maxValueString.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let measured: String
        let what: String
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            if let limits = attribute.type.integerRange, attribute.type != .integer64 {
                low = max(low ?? Double(limits.lowerBound), Double(limits.lowerBound))
                high = min(high ?? Double(limits.upperBound), Double(limits.upperBound))
            }
            measured = "CASE WHEN typeof(\(c)) = 'integer' THEN \(c) END"
            what = "value"
        case .double, .float, .decimal:
            measured = "CASE WHEN typeof(\(c)) IN ('integer', 'real', 'text') THEN CAST(\(c) AS REAL) END"
            what = "value"
        case .date:
            low = low.map { $0 + Self.referenceDateOffset }
            high = high.map { $0 + Self.referenceDateOffset }
            measured = "CASE WHEN typeof(\(c)) IN ('integer', 'real') THEN \(c) END"
            what = "date (seconds since 1970)"
        case .string:
            measured = "CASE WHEN typeof(\(c)) = 'text' THEN length(\(c)) END"
            what = "length"
        default:
            return nil
        }
        var bounds: [String] = []
        if let low, let literal = CheckSQL.number(low) { bounds.append("\(measured) < \(literal)") }
        if let high, let literal = CheckSQL.number(high) { bounds.append("\(measured) > \(literal)") }
        guard !bounds.isEmpty else { return nil }
        let lowText = low.flatMap(CheckSQL.number) ?? "-∞"
        let highText = high.flatMap(CheckSQL.number) ?? "∞"
        var rule = RecordRule(
            code: .recordValueOutOfRange, entity: entity, property: name,
            condition: "_entity IN \(members) AND (\(bounds.joined(separator: " OR ")))",
            valueColumn: attribute.type == .string ? "length(\(c))" : c,
            message: { exact, gid, value in
                let shown = attribute.type == .string ? "has \(value ?? "?") characters" : "is \(value ?? "")"
                return "\(exact) \(gid): \(name) \(shown), outside the allowed \(what) \(lowText)…\(highText)"
            },
            hint: hint)
        rule.minimum = lowText == "-∞" ? nil : lowText
        rule.maximum = highText == "∞" ? nil : highText
        return rule
    }

    /// The SQLite storage classes a column of `type` may hold, or `nil` when any is accepted.
    static func storageClasses(of type: AttributeType) -> [String]? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return ["integer"]
        case .double, .float, .date: return ["integer", "real"]
        case .decimal: return ["integer", "real", "text"]
        case .string: return ["blob", "text"]
        case .uuid, .uri, .objectID, .composite: return ["text"]
        case .binary, .transformable: return ["blob", "text"]
        case .undefined: return nil
        }
    }
}
