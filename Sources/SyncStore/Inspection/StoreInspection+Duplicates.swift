import GRDB

extension StoreInspection {
    /// Every record of `holders` in `table`, sorted by global ID (for a singleton entity: more than
    /// one is a duplicate).
    public func records(in table: String, holders: [String]) throws -> [InspectedRecord] {
        try reading {
            try Row.fetchAll(db, sql: """
                SELECT \(InspectedRecord.columns) FROM \(InspectionSQL.identifier(table)) WHERE _entity IN \(InspectionSQL.list(holders))
                ORDER BY _gid
                """).map(InspectedRecord.init)
        }
    }

    /// The groups of records of `holders` in `table` that share the values of every attribute of
    /// `key`, sorted by those values: among seed records only (`seedsOnly`: a seed key), or among
    /// records whose key attributes are all non-empty (a uniqueness constraint). Values compare as
    /// SQLite compares them.
    ///
    /// - Parameter key: attributes of the store's layout (``StoredProperty/Kind/attribute``), in
    ///   the key's order; an empty key finds nothing.
    public func duplicateGroups(in table: String, holders: [String], key: [StoredProperty], seedsOnly: Bool) throws -> [DuplicateGroup] {
        let columns = key.map { InspectionSQL.identifier($0.column) }
        guard !columns.isEmpty else { return [] }
        let keyList = columns.enumerated().map { "\($0.element) AS k\($0.offset)" }.joined(separator: ", ")
        var filters = ["_entity IN \(InspectionSQL.list(holders))"]
        if seedsOnly { filters.append("_seed_set IS NOT NULL") } else { filters += columns.map { "\($0) IS NOT NULL" } }
        let sql = """
            SELECT * FROM (
                SELECT \(InspectedRecord.columns), \(keyList), COUNT(*) OVER (PARTITION BY \(columns.joined(separator: ", "))) AS n
                FROM \(InspectionSQL.identifier(table)) WHERE \(filters.joined(separator: " AND ")))
            WHERE n > 1 ORDER BY \(columns.indices.map { "k\($0)" }.joined(separator: ", ")), _gid
            """
        var groups: [(values: [DatabaseValue], records: [InspectedRecord])] = []
        for row in try reading({ try Row.fetchAll(db, sql: sql) }) {
            let values: [DatabaseValue] = columns.indices.map { row.storedValue("k\($0)") }
            if groups.last?.values != values { groups.append((values, [])) }
            groups[groups.count - 1].records.append(InspectedRecord(row))
        }
        return groups.map { DuplicateGroup(values: $0.values.map(InspectedValue.init), records: $0.records) }
    }
}
