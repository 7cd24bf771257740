import ObjectModel
import SyncStore

/// One record of a seed set checked against a model: its values converted to the attributes'
/// types, its seed key, and the global ID derived from the key (``SyncStore/seedGlobalID(entity:values:)``).
struct ResolvedSeedRecord {
    let entry: SeedSet.Entry
    let values: [String: AttributeValue]
    let key: [String: AttributeValue]
    let id: GlobalID
    /// To-one relationships: name → the derived global ID of the target named by its seed key.
    let toOne: [String: GlobalID]

    /// Checks `entry` against `store`'s model and resolves it.
    ///
    /// - Throws: ``SeedSetError`` naming the seed set's file and the entry's line.
    init(_ entry: SeedSet.Entry, of set: SeedSet, in store: SyncStore) throws {
        let model = store.model
        func fail(_ problem: String) -> SeedSetError { SeedSetError(path: set.path, line: entry.line, problem: problem) }
        guard let entity = model.entity(named: entry.entity), !entity.isAbstract else {
            throw fail("entity '\(entry.entity)' is not a concrete entity of model \(model.versionName)")
        }
        let values = try Self.converted(entry.values, of: entry.entity, model: model, fail: fail)
        let key = try Self.seedKey(of: entry.entity, in: values, model: model, fail: fail)
        var toOne: [String: GlobalID] = [:]
        for (name, target) in entry.toOne.sorted(by: { $0.key < $1.key }) {
            guard let relationship = model.relationship(name, of: entry.entity), !relationship.isToMany, !relationship.isTransient else {
                throw fail("entity \(entry.entity) has no to-one relationship named '\(name)'")
            }
            let targetValues = try Self.converted(target, of: relationship.destination, model: model, fail: fail)
            let targetKey = try Self.seedKey(of: relationship.destination, in: targetValues, model: model, fail: fail)
            guard targetKey.count == targetValues.count else {
                throw fail("the target of \(name) is named by its seed key only (\(model.facts(of: relationship.destination).seedKey.joined(separator: ", ")))")
            }
            toOne[name] = store.seedGlobalID(entity: relationship.destination, values: AttributeValues(targetKey))
        }
        self.entry = entry
        self.values = values
        self.key = key
        self.id = store.seedGlobalID(entity: entry.entity, values: AttributeValues(key))
        self.toOne = toOne
    }

    /// `values` as written, converted to the types of `entity`'s attributes.
    private static func converted(_ values: [String: JSONValue], of entity: String, model: ManagedModel, fail: (String) -> SeedSetError) throws -> [String: AttributeValue] {
        var converted: [String: AttributeValue] = [:]
        for (name, json) in values {
            guard let attribute = model.attribute(name, of: entity), !attribute.isTransient else {
                throw fail("entity \(entity) has no stored attribute named '\(name)'")
            }
            switch ScriptValue.convert(json, to: attribute.type) {
            case .success(let value): converted[name] = value
            case .failure(let mismatch): throw fail("\(entity).\(name): \(mismatch.reason)")
            }
        }
        return converted
    }

    /// The values of `entity`'s seed key among `values`.
    private static func seedKey(of entity: String, in values: [String: AttributeValue], model: ManagedModel, fail: (String) -> SeedSetError) throws -> [String: AttributeValue] {
        let names = model.facts(of: entity).seedKey
        guard !names.isEmpty else {
            throw fail("entity \(entity) has no storekeep.seedKey in the model: seed records are identified by it (docs/models.md)")
        }
        var key: [String: AttributeValue] = [:]
        for name in names {
            guard let value = values[name], !value.isNull else { throw fail("the seed key \(name) of \(entity) has no value") }
            key[name] = value
        }
        return key
    }
}
