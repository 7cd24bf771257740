import Foundation
import GRDB

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
        try database.read { db in
            var modified = Set<GlobalID>()
            let prunedHistory = !(try Self.historyFloor(in: db).isEmpty)
            let changes = try db.cachedStatement(sql: """
                SELECT c.kind, c.properties, t.author FROM sk_change c JOIN sk_transaction t ON t.id = c.tx WHERE c.gid = ?
                """)
            for id in ids {
                guard let (entity, updated, bulkInserted) = try rowFacts(of: id, in: db) else { continue }
                let attributes = Set(model.attributes(of: entity).map(\.name))
                var inserted = bulkInserted
                var attributeEdit = false
                let rows = try Row.fetchCursor(changes, arguments: [id.rawValue])
                while let row = try rows.next() {
                    let kind: String = row[0]
                    if kind == ChangeKind.insert.rawValue { inserted = true }
                    let author: String = row[2]
                    guard kind == ChangeKind.update.rawValue, !author.hasPrefix(Self.toolAuthorPrefix) else { continue }
                    let text: String = row[1]
                    let names = (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
                    if names.contains(where: attributes.contains) { attributeEdit = true }
                }
                // With part of the history archived, an edit may have left it: any update counts.
                if attributeEdit || (updated && (!inserted || prunedHistory)) { modified.insert(id) }
            }
            return modified
        }
    }

    /// The exact entity of `id`, whether its update time is set and whether a bulk import's insert
    /// run holds its insert, or `nil` when there is no such record.
    private func rowFacts(of id: GlobalID, in db: Database) throws -> (String, Bool, Bool)? {
        let run = hasInsertRuns ? "IFNULL(_insert_run IN (SELECT id FROM sk_insert_run), 0)" : "0"
        for table in Set(layout.tableOfEntity.values).sorted() {
            if let row = try Row.fetchOne(db, sql: "SELECT _entity, _updated IS NOT NULL, \(run) FROM \(table.quotedDatabaseIdentifier) WHERE _gid = ?",
                                          arguments: [id.rawValue]) {
                return (row[0], row[1], row[2])
            }
        }
        return nil
    }
}
