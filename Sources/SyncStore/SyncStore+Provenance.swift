import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// The prefix of the history authors storekeep itself writes (`storekeep.migrate`, `storekeep.repair`, …).
    public static let toolAuthorPrefix = "storekeep."

    /// Which of `ids` the user has modified since they were inserted.
    ///
    /// A record counts as the user's own work when:
    /// - the history holds an `update` change of it, by an author that is not storekeep itself
    ///   (``toolAuthorPrefix``), naming at least one of its attributes; a change that only moved a
    ///   relationship (another record now points at it) does not count; or
    /// - its update time is set and the history holds no insert of it, neither a change nor an
    ///   insert run (the history was trimmed or came from elsewhere): storekeep cannot tell, so the
    ///   record is taken to be the user's.
    ///
    /// Repair never deletes such a record (article 1: a seed record the user edited is the user's).
    public func userModifiedRecords(among ids: [GlobalID]) throws -> Set<GlobalID> {
        guard !layout.entityTables.isEmpty else { return [] }
        return try read("read the history of records") { db in try userModifiedRecords(among: ids, in: db) }
    }

    /// ``userModifiedRecords(among:)``, read in `db` (a save's own transaction, so that what it
    /// decides from it cannot go stale before it writes).
    func userModifiedRecords(among ids: [GlobalID], in db: Database) throws -> Set<GlobalID> {
        guard !layout.entityTables.isEmpty else { return [] }
        var modified = Set<GlobalID>()
        let prunedHistory = !(try Self.historyFloor(in: db).isEmpty)
        let changes = try db.cachedStatement(sql: """
            SELECT c.kind, c.properties, t.author FROM sk_change c JOIN sk_transaction t ON t.id = c.tx WHERE c.gid = ?
            """)
        let facts = try db.cachedStatement(sql: rowFactsSQL)
        var attributesOf: [String: Set<String>] = [:]
        for id in ids {
            // Every value is read as optional: a store written around storekeep may hold NULL anywhere.
            guard let row = try Row.fetchOne(facts, arguments: [id.rawValue]) else { continue }
            let entity = row.stored(at: 0, as: String.self) ?? ""
            let updated = row.stored(at: 1, as: Int64.self).map { $0 != 0 } ?? false
            var inserted = row.stored(at: 2, as: Int64.self).map { $0 != 0 } ?? false
            if attributesOf[entity] == nil { attributesOf[entity] = Set(model.attributes(of: entity).map(\.name)) }
            let attributes = attributesOf[entity] ?? []
            var attributeEdit = false
            let rows = try Row.fetchCursor(changes, arguments: [id.rawValue])
            while let change = try rows.next() {
                let kind = change.stored(at: 0, as: String.self)
                if kind == ChangeKind.insert.rawValue { inserted = true }
                // A change without an author is not storekeep's own: it may be the user's.
                let author = change.stored(at: 2, as: String.self) ?? ""
                guard kind == ChangeKind.update.rawValue, !author.hasPrefix(Self.toolAuthorPrefix) else { continue }
                let text = change.stored(at: 1, as: String.self) ?? "[]"
                let names = (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
                if names.contains(where: attributes.contains) { attributeEdit = true }
            }
            // With part of the history archived, an edit may have left it: any update counts.
            if attributeEdit || (updated && (!inserted || prunedHistory)) { modified.insert(id) }
        }
        return modified
    }

    /// One statement over every entity table giving, for a global ID, the record's exact entity,
    /// whether its update time is set, and whether a bulk import's insert run holds its insert
    /// (`_insert_run` is NULL for a record saved one by one: `EXISTS` gives 0 then, never NULL).
    private var rowFactsSQL: String {
        let run = hasInsertRuns ? "EXISTS (SELECT 1 FROM sk_insert_run r WHERE r.id = _insert_run)" : "0"
        return layout.entityTables.map { table in
            "SELECT _entity, _updated IS NOT NULL, \(run) FROM \(table.quotedSQLIdentifier) WHERE _gid = ?1"
        }.joined(separator: " UNION ALL ") + " LIMIT 1"
    }
}
