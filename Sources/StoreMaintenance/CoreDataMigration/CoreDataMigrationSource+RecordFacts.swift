import GRDBSQLite
import LegacyFormats

extension CoreDataMigrationSource {
    /// What the planning needs to know of the store's records, counted with SQL on the store's
    /// copy: the entities without records, and the records of an entity whose attribute's column
    /// is NULL (`nil` for an attribute the reader does not read from a column of its own).
    static func recordFacts(of reader: CoreDataStoreReader) -> SourceRecordFacts {
        let empty = Set(reader.model.entities.filter { !$0.isAbstract && (reader.entityCounts[$0.name] ?? 0) == 0 }.map(\.name))
        return SourceRecordFacts(emptyEntities: empty, recordCounts: reader.entityCounts) { entity, attribute in
            guard let storage = reader.storage(of: entity),
                  let column = storage.attributes.first(where: { $0.name == attribute })?.column else { return nil }
            var count = 0
            try reader.forEachRow(sql: "SELECT COUNT(*) FROM \(storage.table.quotedSQLIdentifier) WHERE \(storage.rowCondition) "
                                  + "AND \(column.quotedSQLIdentifier) IS NULL") { row in
                count = Int(sqlite3_column_int64(row, 0))
                return false
            }
            return count
        }
    }
}
