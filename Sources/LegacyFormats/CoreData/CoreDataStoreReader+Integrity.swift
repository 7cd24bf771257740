import GRDB

extension CoreDataStoreReader {
    /// Checks the SQLite file itself (SQLite's `quick_check`, on the private copy): every page,
    /// every table's order of rows, every index against its table.
    ///
    /// A damaged file can read as a store (its schema and counts read fine) and still give another
    /// number of rows depending on how a table is read; `storekeep inspect` runs this so that it
    /// refuses what `migrate` would refuse.
    ///
    /// ```swift
    /// try reader.requireIntact()   // throws: "…/Books.sqlite: SQLite finds the file damaged: On tree page 4 cell 10: Rowid 127 out of order"
    /// ```
    ///
    /// - Throws: ``CoreDataStoreError`` `.badInput` naming the store and SQLite's first findings.
    public func requireIntact() throws(CoreDataStoreError) {
        let lines: [String]
        do {
            // One row per problem, or several problems in one row's lines (under a "*** in database" title).
            lines = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
                .flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("***") }
        } catch {
            throw Self.openingError(error, path: path)
        }
        guard lines != ["ok"] else { return }
        throw CoreDataStoreError(
            path: path, problem: "SQLite finds the file damaged: \(lines.prefix(3).joined(separator: "; "))",
            hint: "restore the store from a backup, or repair a copy of it (sqlite3's .recover) and use the copy")
    }
}
