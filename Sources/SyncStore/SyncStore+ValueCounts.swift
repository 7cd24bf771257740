import GRDB
import ObjectModel

extension SyncStore {
    /// How many live records of exactly `entity` hold a value for `property`: an attribute that is
    /// not empty (not NULL), a to-one that is set, or a to-many kept by the records themselves (a
    /// join table) with at least one member. A to-many whose members are kept by a to-one inverse
    /// counts 0 (count the inverse). Used to say how much a migration that drops `property` loses.
    ///
    /// - Throws: `StoreError` (`invalidRequest`) for an entity or property the model does not have.
    public func nonEmptyCount(of property: String, entity: String) throws -> Int {
        guard let table = layout.tableOfEntity[entity] else {
            throw StoreError(.invalidRequest, path: path, message: "there is no entity named '\(entity)' in model \(model.versionName)")
        }
        let sql: String
        if let column = layout.attributeColumns[entity]?[property] {
            sql = "SELECT COUNT(\(column.quotedSQLIdentifier)) FROM \(table.quotedSQLIdentifier) WHERE _entity = ?"
        } else {
            switch layout.relationships[entity]?[property] {
            case .column(_, let column, _)?:
                sql = "SELECT COUNT(\(column.quotedSQLIdentifier)) FROM \(table.quotedSQLIdentifier) WHERE _entity = ?"
            case .join(let joinTable, let sourceColumn, _, _, _)?:
                sql = """
                    SELECT COUNT(DISTINCT j.\(sourceColumn.quotedSQLIdentifier)) FROM \(joinTable.quotedSQLIdentifier) AS j
                    JOIN \(table.quotedSQLIdentifier) AS t ON t._gid = j.\(sourceColumn.quotedSQLIdentifier) WHERE t._entity = ?
                    """
            case .inverseColumn?:
                return 0
            case nil:
                throw StoreError(.invalidRequest, path: path, message: "entity \(entity) of model \(model.versionName) has no stored property named '\(property)'")
            }
        }
        return try read("count values") { db in try Int.fetchOne(db, sql: sql, arguments: [entity]) ?? 0 }
    }
}
