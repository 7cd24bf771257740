import GRDB

extension StoreInspection {
    /// Why the history cannot be inspected, or `nil` when its tables are there.
    public func historyTableProblem() throws -> HistoryTableProblem? {
        let tables = [StoreLayoutDescription.transactionTable, StoreLayoutDescription.changeTable, StoreLayoutDescription.peerTable]
        for table in tables where try !tableExists(table) { return .incomplete(tables: tables) }
        if try recordsInsertRuns(), try !tableExists(StoreLayoutDescription.insertRunTable) {
            return .insertRunsMissing(table: StoreLayoutDescription.insertRunTable)
        }
        return nil
    }

    /// Per peer, the sequence numbers missing between two of its transactions, sorted by peer then sequence.
    public func sequenceGaps() throws -> [SequenceGap] {
        try reading {
            try Row.fetchAll(db, sql: """
                SELECT peer, previous + 1 AS first, seq - 1 AS last FROM (
                    SELECT peer, seq, LAG(seq) OVER (PARTITION BY peer ORDER BY seq) AS previous FROM sk_transaction)
                WHERE previous IS NOT NULL AND seq > previous + 1 ORDER BY peer, seq
                """).map { row in
                SequenceGap(peer: row.stored("peer", as: String.self) ?? "", first: row.stored("first", as: Int64.self) ?? 0,
                            last: row.stored("last", as: Int64.self) ?? 0)
            }
        }
    }

    /// The changes of transactions the history does not have, by transaction.
    public func orphanedChanges() throws -> [OrphanedChanges] {
        try orphans(in: "sk_change", counted: "COUNT(*)")
    }

    /// The insert runs of transactions the history does not have, by transaction, counted in the
    /// records they stand for (format 3 and later).
    public func orphanedInsertRuns() throws -> [OrphanedChanges] {
        try orphans(in: "sk_insert_run", counted: "SUM(c.records)")
    }

    private func orphans(in table: String, counted: String) throws -> [OrphanedChanges] {
        try reading {
            try Row.fetchAll(db, sql: """
                SELECT c.tx AS tx, \(counted) AS n FROM \(table) c
                WHERE NOT EXISTS (SELECT 1 FROM sk_transaction t WHERE t.id = c.tx) GROUP BY c.tx ORDER BY c.tx
                """).map { row in
                OrphanedChanges(transaction: row.stored("tx", as: Int64.self) ?? 0, count: row.stored("n", as: Int.self) ?? 0)
            }
        }
    }

    /// The global IDs the changes of `transaction` concern, sorted, at most `limit`.
    public func globalIDs(ofChangesIn transaction: Int64, limit: Int) throws -> [String] {
        try reading {
            try texts("SELECT DISTINCT gid FROM sk_change WHERE tx = ? ORDER BY gid LIMIT \(max(0, limit))", arguments: [transaction])
        }
    }

    /// The records of the entity table `table` that name an insert run the history does not have;
    /// `nil` when there are none, or the table has no insert-run column.
    public func missingInsertRuns(in table: String) throws -> MissingInsertRuns? {
        guard let columns = try columns(ofTable: table), columns.contains(StoreLayout.insertRunColumn) else { return nil }
        let count = try reading {
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM \(InspectionSQL.identifier(table)) e WHERE e._insert_run IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM sk_insert_run r WHERE r.id = e._insert_run)
                """) ?? 0
        }
        return count > 0 ? MissingInsertRuns(table: table, count: count) : nil
    }

    /// The global IDs of the records of `table` that name an insert run the history does not have,
    /// sorted, at most `limit`.
    public func globalIDsNamingMissingInsertRuns(in table: String, limit: Int) throws -> [String] {
        try reading {
            try texts("""
                SELECT _gid FROM \(InspectionSQL.identifier(table)) e WHERE e._insert_run IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM sk_insert_run r WHERE r.id = e._insert_run) ORDER BY _gid LIMIT \(max(0, limit))
                """)
        }
    }

    /// The peers with transactions in the history that the peer table does not list, sorted.
    public func unknownPeers() throws -> [UnknownPeerHistory] {
        try reading {
            try Row.fetchAll(db, sql: """
                SELECT peer, COUNT(*) AS n, MAX(seq) AS last FROM sk_transaction
                WHERE peer NOT IN (SELECT peer FROM sk_peer) GROUP BY peer ORDER BY peer
                """).map { row in
                UnknownPeerHistory(peer: row.stored("peer", as: String.self) ?? "", transactions: row.stored("n", as: Int.self) ?? 0,
                                   lastSequence: row.stored("last", as: Int64.self) ?? 0)
            }
        }
    }

    /// The peers the peer table marks as local, sorted (exactly the store's own peer in a sound store).
    public func localPeers() throws -> [String] {
        try reading { try texts("SELECT peer FROM sk_peer WHERE is_local != 0 ORDER BY peer") }
    }

    /// The first column of every row `sql` returns, as text (SQLite's reading of a number as text;
    /// the columns read are `NOT NULL` in every store storekeep makes).
    private func texts(_ sql: String, arguments: StatementArguments = []) throws -> [String] {
        try String.fetchAll(db, sql: sql, arguments: arguments)
    }
}
