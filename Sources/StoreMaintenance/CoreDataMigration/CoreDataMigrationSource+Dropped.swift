import ObjectModel
import GRDBSQLite
import LegacyFormats

extension CoreDataMigrationSource {
    /// What the steps drop that holds values in the store (see ``StepChain/dropped``), counted with
    /// SQL on the store's copy: an attribute's non-NULL values, a to-one's set targets, the records
    /// of an entity; a to-many in a join table by reading its records.
    public func droppedData() throws -> [DroppedData] {
        guard let chain else { return [] }
        return try chain.dropped.compactMap { entry in
            var counted = entry
            counted.values = try count(entry)
            return counted.values > 0 ? counted : nil
        }
    }

    private func count(_ entry: DroppedData) throws -> Int {
        guard entry.kind != .entity else { return reader.entityCounts[entry.entity] ?? 0 }
        guard (reader.entityCounts[entry.entity] ?? 0) > 0, let storage = reader.storage(of: entry.entity),
              let property = entry.property else { return 0 }
        let table = storage.table.quotedSQLIdentifier
        if let column = storage.attributes.first(where: { $0.name == property })?.column ?? storage.toOnes.first(where: { $0.name == property })?.column {
            let quoted = column.quotedSQLIdentifier
            let empty = entry.kind == .attribute ? "\(quoted) IS NULL" : "(\(quoted) IS NULL OR \(quoted) = 0)"
            var total = 0
            try reader.forEachRow(sql: "SELECT COUNT(*) FROM \(table) WHERE \(storage.rowCondition) AND NOT \(empty)") { row in
                total = Int(sqlite3_column_int64(row, 0))
                return false
            }
            return total
        }
        guard storage.joinedToManyNames.contains(property) else { return 0 }
        var total = 0
        try reader.forEachRecord(entity: entry.entity, afterPrimaryKey: 0) { record in
            if record.toMany[property]?.isEmpty == false { total += 1 }
            return true
        }
        return total
    }
}
