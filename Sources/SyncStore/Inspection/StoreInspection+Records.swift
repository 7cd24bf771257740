import GRDB

extension StoreInspection {
    /// Hands over every record of the entity table `table` that breaks at least one of `tests`, in
    /// one scan of the table: SQL selects only those records, with one flag per test.
    ///
    /// Does nothing when the table is missing or lacks the columns every entity table has (a
    /// schema difference, ``reviewSchema(against:_:)``), or when `tests` is empty.
    ///
    /// - Parameters:
    ///   - table: an entity table (``StoreLayoutDescription/table(ofRootEntity:)``).
    ///   - body: called once per record, in table order; the match is valid only during the call.
    public func forEachRecord(failing tests: [RecordTest], in table: String, _ body: (RecordTestMatch) throws -> Void) throws {
        guard let present = try columns(ofTable: table), present.isSuperset(of: StoreLayout.baseEntityColumns), !tests.isEmpty else { return }
        var selected = ["_gid", "_entity"]
        for (index, test) in tests.enumerated() {
            selected.append("CASE WHEN \(test.condition) THEN 1 ELSE 0 END AS f\(index)")
            if let value = test.value { selected.append("\(value) AS v\(index)") }
        }
        let sql = "SELECT \(selected.joined(separator: ", ")) FROM \(InspectionSQL.identifier(table)) WHERE "
            + tests.map { "(\($0.condition))" }.joined(separator: " OR ")
        try reading {
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() { try body(RecordTestMatch(table: table, row: row)) }
        }
    }
}
