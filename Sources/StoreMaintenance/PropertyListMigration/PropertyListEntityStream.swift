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

    var name: String { rule.from.isEmpty ? rule.entity : rule.from }
    var entity: String { rule.entity }

    func estimatedCount() throws -> Int? {
        if let count = try? document.elementCount(atKeyPath: rule.from) { return count }
        return try document.value(atKeyPath: rule.from) == nil ? 0 : 1
    }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        var lookups: [String: [AttributeValue: GlobalID]] = [:]
        for relationship in rule.relationships where lookups[relationship.relationship] == nil {
            lookups[relationship.relationship] = try store.globalIDs(byValueOf: relationship.match, of: relationship.entity)
        }
        var types: [String: AttributeType] = [:]
        for attribute in rule.attributes { types[attribute.attribute] = model.attribute(attribute.attribute, of: rule.entity)?.type ?? .undefined }
        for relationship in rule.relationships {
            types["->" + relationship.relationship] = model.attribute(relationship.match, of: relationship.entity)?.type ?? .string
        }
        let convert = { (index: Int, value: PropertyListValue) -> MigrationItem in
            self.item(index: index, element: value, store: store, lookups: lookups, types: types)
        }
        let isArray: Bool
        do {
            isArray = try document.elementCount(atKeyPath: rule.from) != nil
        } catch {
            isArray = false
        }
        if isArray {
            try document.forEachElement(atKeyPath: rule.from, from: Int(position + 1)) { index, value in
                try body(convert(index, value))
            }
        } else if position < 0, let value = try document.value(atKeyPath: rule.from) {
            _ = try body(convert(0, value))
        }
    }

    private func item(
        index: Int, element: PropertyListValue, store: SyncStore, lookups: [String: [AttributeValue: GlobalID]], types: [String: AttributeType]
    ) -> MigrationItem {
        let position = Int64(index)
        let place = "\(rule.from)[\(index)]"
        guard case .dictionary = element else {
            return .rejected(position: position, reason: "\(place) is a \(element.typeName), not a dictionary")
        }
        var values: [String: AttributeValue] = [:]
        for attribute in rule.attributes {
            guard let found = Self.value(in: element, keyPath: attribute.key) else { continue }
            switch PropertyListValueConverter.convert(found, to: types[attribute.attribute] ?? .undefined) {
            case .success(let value): values[attribute.attribute] = value
            case .failure(let problem): return .rejected(position: position, reason: "\(place).\(attribute.key): \(problem.reason)")
            }
        }
        var toOne: [String: GlobalID] = [:]
        for relationship in rule.relationships {
            guard let found = Self.value(in: element, keyPath: relationship.key) else { continue }
            guard case .success(let key) = PropertyListValueConverter.convert(found, to: types["->" + relationship.relationship] ?? .string),
                  let target = lookups[relationship.relationship]?[key] else {
                return .rejected(position: position,
                                 reason: "\(place).\(relationship.key): \(Self.describe(found)) matches no \(relationship.entity) (by \(relationship.match))")
            }
            toOne[relationship.relationship] = target
        }
        var seed: SeedMark?
        if let rule = rule.seed {
            if let flag = rule.when {
                if case .boolean(true)? = Self.value(in: element, keyPath: flag) { seed = SeedMark(set: rule.set, version: rule.version) }
            } else {
                seed = SeedMark(set: rule.set, version: rule.version)
            }
        }
        let id: GlobalID
        switch rule.identity {
        case .key(let key):
            guard case .string(let text)? = Self.value(in: element, keyPath: key), !text.isEmpty else {
                return .rejected(position: position, reason: "\(place) has no text '\(key)' to use as its global ID")
            }
            id = GlobalID(UUID(uuidString: text)?.uuidString ?? text)
        case .seedKey:
            id = store.seedGlobalID(entity: rule.entity, values: values)
        case .position:
            id = GlobalID("\(mappingName)/\(rule.entity)/\(index)")
        }
        return .record(position: position, ImportRecord(entity: rule.entity, globalID: id, values: values, toOne: toOne, seed: seed))
    }

    private static func value(in element: PropertyListValue, keyPath: String) -> PropertyListValue? {
        var current: PropertyListValue? = element
        for key in keyPath.split(separator: ".") { current = current?[key: String(key)] }
        return current
    }

    private static func describe(_ value: PropertyListValue) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return "a \(value.typeName)"
    }
}
