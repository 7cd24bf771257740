import GRDB

extension StoreInspection {
    /// Hands over the records of `holders` whose to-one `property` names a record that does not
    /// exist in `targetTable`, or one whose entity is not among `allowed`.
    ///
    /// - Parameters:
    ///   - property: a to-one relationship (``StoredProperty/Kind/toOne``) of the store's layout.
    ///   - holders: the entities whose records are looked at (the declaring entity and its sub-entities).
    ///   - targetTable: the table of the destination's family (``StoreLayoutDescription/table(of:)``).
    ///   - allowed: the destination and its sub-entities.
    public func forEachDanglingToOne(_ property: StoredProperty, holders: [String], targetTable: String, allowed: [String],
                                     _ body: (DanglingToOne) throws -> Void) throws {
        let c = InspectionSQL.identifier(property.column)
        let sql = """
            SELECT s._gid AS gid, s._entity AS entity, s.\(c) AS target, t._entity AS target_entity
            FROM \(InspectionSQL.identifier(property.table)) s LEFT JOIN \(InspectionSQL.identifier(targetTable)) t ON t._gid = s.\(c)
            WHERE s._entity IN \(InspectionSQL.list(holders)) AND s.\(c) IS NOT NULL
              AND (t._gid IS NULL OR t._entity NOT IN \(InspectionSQL.list(allowed)))
            """
        try reading {
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                try body(DanglingToOne(globalID: row.stored("gid", as: String.self) ?? "", entity: row.stored("entity", as: String.self) ?? "",
                                       target: row.stored("target", as: String.self) ?? "", targetEntity: row.stored("target_entity", as: String.self)))
            }
        }
    }

    /// The targets that several records of `holders` name through the to-one `property` (whose
    /// inverse is to-one: a target may be named once), sorted by target.
    public func sharedToOneTargets(_ property: StoredProperty, holders: [String]) throws -> [SharedToOneTarget] {
        let c = InspectionSQL.identifier(property.column)
        let table = InspectionSQL.identifier(property.table)
        let members = InspectionSQL.list(holders)
        let sql = """
            SELECT \(c) AS target, \(InspectedRecord.columns) FROM \(table)
            WHERE _entity IN \(members) AND \(c) IN (
                SELECT \(c) FROM \(table) WHERE _entity IN \(members) AND \(c) IS NOT NULL GROUP BY \(c) HAVING COUNT(*) > 1)
            ORDER BY \(c), _gid
            """
        var groups: [SharedToOneTarget] = []
        for row in try reading({ try Row.fetchAll(db, sql: sql) }) {
            let target = row.stored("target", as: String.self) ?? ""
            if groups.last?.target != target { groups.append(SharedToOneTarget(target: target, records: [])) }
            groups[groups.count - 1].records.append(InspectedRecord(row))
        }
        return groups
    }

    /// Hands over the records of `holders` whose to-one `property` names a record of `targets` (in
    /// `targetTable`) whose to-one `inverse` does not name them back.
    public func forEachUnreturnedOneToOne(_ property: StoredProperty, inverse: StoredProperty, holders: [String], targetTable: String,
                                          targets: [String], _ body: (UnreturnedOneToOne) throws -> Void) throws {
        let c = InspectionSQL.identifier(property.column)
        let back = InspectionSQL.identifier(inverse.column)
        let sql = """
            SELECT a._gid AS gid, a._entity AS entity, a.\(c) AS target, b.\(back) AS back
            FROM \(InspectionSQL.identifier(property.table)) a JOIN \(InspectionSQL.identifier(targetTable)) b ON b._gid = a.\(c)
            WHERE a._entity IN \(InspectionSQL.list(holders))
              AND b._entity IN \(InspectionSQL.list(targets))
              AND (b.\(back) IS NULL OR b.\(back) != a._gid)
            """
        try reading {
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                try body(UnreturnedOneToOne(globalID: row.stored("gid", as: String.self) ?? "", entity: row.stored("entity", as: String.self) ?? "",
                                            target: row.stored("target", as: String.self) ?? "", inverseTarget: row.stored("back", as: String.self)))
            }
        }
    }

    /// Hands over the rows of the join table `table` whose `side` names no record of `recordTable`,
    /// or a record whose entity is not among `allowed`.
    public func forEachDanglingJoinRow(in table: String, side: StoredProperty.JoinSide, recordTable: String, allowed: [String],
                                       _ body: (DanglingJoinRow) throws -> Void) throws {
        let sql = """
            SELECT j.owner AS owner, j.target AS target, x._entity AS found
            FROM \(InspectionSQL.identifier(table)) j LEFT JOIN \(InspectionSQL.identifier(recordTable)) x ON x._gid = j.\(side.column)
            WHERE x._gid IS NULL OR x._entity NOT IN \(InspectionSQL.list(allowed))
            """
        try reading {
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                try body(DanglingJoinRow(owner: row.stored("owner", as: String.self) ?? "", target: row.stored("target", as: String.self) ?? "",
                                         foundEntity: row.stored("found", as: String.self)))
            }
        }
    }

    /// Hands over the records of `holders` (in `ownerTable`) whose to-many `property` has a member
    /// count `bounds` rules out. Does nothing for a property that is not a to-many relationship,
    /// or bounds that rule nothing out.
    public func forEachMemberCount(of property: StoredProperty, ownerTable: String, holders: [String], outside bounds: MemberCountBounds,
                                   _ body: (MemberCount) throws -> Void) throws {
        guard property.kind == .toManyInverse || property.kind == .join, let condition = bounds.condition else { return }
        let counted = "SELECT COUNT(*) FROM \(InspectionSQL.identifier(property.table)) m WHERE m.\(InspectionSQL.identifier(property.column)) = o._gid"
        let sql = """
            SELECT gid, entity, n FROM (
                SELECT o._gid AS gid, o._entity AS entity, (\(counted)) AS n FROM \(InspectionSQL.identifier(ownerTable)) o
                WHERE o._entity IN \(InspectionSQL.list(holders)))
            WHERE \(condition)
            """
        try reading {
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                try body(MemberCount(globalID: row.stored("gid", as: String.self) ?? "", entity: row.stored("entity", as: String.self) ?? "",
                                     count: row.stored("n", as: Int.self) ?? 0))
            }
        }
    }
}
