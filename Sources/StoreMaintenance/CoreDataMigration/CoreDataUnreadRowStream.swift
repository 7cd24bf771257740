import LegacyFormats
import SyncStore

/// The rows of one table of a Core Data store that no record stands for (a `Z_ENT` naming no
/// entity with records of its own there, a `Z_PK` that is not a positive integer): each is
/// yielded as rejected, with its reason, so that it is counted and listed rather than lost.
/// Positions are places in the reader's order of such rows (1, 2, …).
struct CoreDataUnreadRowStream: MigrationStream {
    let reader: CoreDataStoreReader
    let table: String

    /// "ZBOOK rows of no entity".
    var name: String { "\(table) rows of no entity" }
    /// The entity whose tree keeps its rows in the table.
    var entity: String { reader.rootEntity(ofTable: table) ?? table }

    func estimatedCount() throws -> Int? { reader.unreadRowCounts[table] ?? 0 }

    func forEach(after position: Int64, store: SyncStore, _ body: (MigrationItem) throws -> Bool) throws {
        try reader.forEachUnreadRow(in: table, afterPlace: max(position, 0)) { place, reason in
            try body(.rejected(position: place, reason: reason))
        }
    }
}
