import Foundation
import LegacyFormats
import ObjectModel
import SyncStore

/// The records of one mapped entity: the elements of a property-list array (position = index), or
/// one dictionary (position 0).
struct PropertyListEntityStream: MigrationStream {
    let rule: MigrationMapping.EntityRule
    let document: PropertyListDocument
    let mappingName: String
    let model: ManagedModel
    let elementCounts: PropertyListElementCounts

    var name: String { rule.from.isEmpty ? rule.entity : rule.from }
    var entity: String { rule.entity }

    func estimatedCount() throws -> Int? {
        if let count = elementCounts.count(atKeyPath: rule.from) { return count }
        return try document.hasValue(atKeyPath: rule.from) ? 1 : 0
    }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        var lookups: [String: [AttributeValue: GlobalID]] = [:]
        for relationship in rule.relationships where lookups[relationship.relationship] == nil {
            lookups[relationship.relationship] = try store.globalIDs(byValueOf: relationship.match, of: relationship.entity)
        }
        let plan = PropertyListRecordPlan(rule: rule, model: model, lookups: lookups)
        if elementCounts.count(atKeyPath: rule.from) != nil {
            try document.forEachElement(atKeyPath: rule.from, from: Int(position + 1), selecting: plan.selection) { index, values, typeName in
                try body(item(index: index, values: values, typeName: typeName, plan: plan, store: store))
            }
        } else if position < 0, let value = try document.value(atKeyPath: rule.from) {
            if case .dictionary(let entries) = value {
                _ = try body(item(index: 0, values: plan.selection.keys.map { entries[$0] }, typeName: "dictionary", plan: plan, store: store))
            } else {
                _ = try body(item(index: 0, values: nil, typeName: value.typeName, plan: plan, store: store))
            }
        }
    }

    /// The record (or the reason it is rejected) of the element at `index`, from the values of the
    /// plan's keys (`nil` when the element is not a dictionary).
    private func item(index: Int, values selected: [PropertyListValue?]?, typeName: String, plan: PropertyListRecordPlan, store: SyncStore) -> MigrationItem {
        let position = Int64(index)
        func place() -> String { "\(rule.from)[\(index)]" }
        guard let selected else {
            return .rejected(position: position, reason: "\(place()) is a \(typeName), not a dictionary")
        }
        var values = AttributeValues()
        values.reserveCapacity(plan.attributes.count)
        for attribute in plan.attributes {
            guard let found = attribute.path.value(in: selected) else { continue }
            switch PropertyListValueConverter.convert(found, to: attribute.type) {
            case .success(let value): values.append(value, forNewName: attribute.name)
            case .failure(let problem): return .rejected(position: position, reason: "\(place()).\(attribute.key): \(problem.reason)")
            }
        }
        var toOne: [String: GlobalID] = [:]
        for relationship in plan.relationships {
            guard let found = relationship.path.value(in: selected) else { continue }
            guard case .success(let key) = PropertyListValueConverter.convert(found, to: relationship.matchType),
                  let target = relationship.targets[key] else {
                return .rejected(position: position,
                                 reason: "\(place()).\(relationship.rule.key): \(Self.describe(found)) matches no \(relationship.rule.entity) (by \(relationship.rule.match))")
            }
            toOne[relationship.rule.relationship] = target
        }
        var seed: SeedMark?
        if let seedRule = rule.seed {
            if let flag = plan.seedFlag {
                if case .boolean(true)? = flag.value(in: selected) { seed = SeedMark(set: seedRule.set, version: seedRule.version) }
            } else {
                seed = SeedMark(set: seedRule.set, version: seedRule.version)
            }
        }
        let id: GlobalID
        switch rule.identity {
        case .key(let key):
            guard case .string(let text)? = plan.identityKey?.value(in: selected), !text.isEmpty else {
                return .rejected(position: position, reason: "\(place()) has no text '\(key)' to use as its global ID")
            }
            id = GlobalID(CanonicalUUIDText.canonical(text))
        case .seedKey:
            id = store.seedGlobalID(entity: rule.entity, values: values)
        case .position:
            id = GlobalID("\(mappingName)/\(rule.entity)/\(index)")
        }
        return .record(position: position, ImportRecord(entity: rule.entity, globalID: id, values: values, toOne: toOne, seed: seed))
    }

    private static func describe(_ value: PropertyListValue) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return "a \(value.typeName)"
    }
}
