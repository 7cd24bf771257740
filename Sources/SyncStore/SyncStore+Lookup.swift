import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// The global ID of a seed record, derived from its seed-key values: two peers that seed the
    /// same record offline give it the same ID, so they converge without duplicates.
    ///
    /// The ID is the SHA-256 of `storekeep-seed-id 1`, the entity's root name and each key
    /// attribute's canonical value (as in the content digest), written as an uppercase UUID.
    public func seedGlobalID(entity: String, values: AttributeValues) -> GlobalID {
        let root = model.rootEntity(of: entity)?.name ?? entity
        var text = "storekeep-seed-id 1\n\(root)\n"
        for name in model.facts(of: entity).seedKey {
            let attribute = model.attribute(name, of: entity)
            let given = values[name] ?? .null
            let stored = attribute.flatMap { ValueCoder.normalized(given, for: $0) }.map(ValueCoder.databaseValue) ?? .null
            text += "\(name)=\(Self.encode(stored, type: attribute?.type ?? .string))\n"
        }
        let bytes = SHA256.hexDigest(of: text).uppercased()
        let characters = Array(bytes.prefix(32))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return GlobalID(groups.joined(separator: "-"))
    }

    /// Global IDs of the live records of `entity` (sub-entities included) by their value of
    /// `attribute`; when several records share a value, the smallest global ID wins.
    public func globalIDs(byValueOf attribute: String, of entity: String) throws -> [AttributeValue: GlobalID] {
        guard let table = layout.tableOfEntity[entity], let column = layout.attributeColumns[entity]?[attribute],
              let description = model.attribute(attribute, of: entity) else {
            throw StoreError(.invalidRequest, path: path, message: "entity \(entity) has no stored attribute named '\(attribute)'")
        }
        let names = [entity] + model.descendants(of: entity).map(\.name)
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try read("look records up") { db in
            var result: [AttributeValue: GlobalID] = [:]
            let sql = "SELECT \(column.quotedSQLIdentifier), _gid FROM \(table.quotedSQLIdentifier) WHERE _entity IN (\(marks)) ORDER BY _gid DESC"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(names)) {
                guard let gid = row.stored(at: 1, as: String.self) else { continue }
                result[ValueCoder.attributeValue(row[0], for: description.type)] = GlobalID(gid)
            }
            return result
        }
    }
}
