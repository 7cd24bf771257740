import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

/// Builds a change payload in log form (blob bytes inline) from a record's row: the values of the
/// named properties as the store holds them now, and the current members of its named to-many
/// relationships as additions.
struct RowPayloadBuilder {
    private enum Item {
        case attribute(position: Int, type: AttributeType)
        case toOne(position: Int, ordered: Bool)
        case toMany(position: Int, table: String, sourceColumn: String, targetColumn: String, sourceOrder: String?, targetOrder: String?)
    }

    let store: SyncStore
    let db: Database
    let schema: SyncEntitySchema
    private let items: [Item]
    /// The columns to select, in the order ``payload(of:from:firstColumn:)`` reads them.
    let selectList: String

    init(store: SyncStore, db: Database, schema: SyncEntitySchema, names: [String]) {
        self.store = store
        self.db = db
        self.schema = schema
        var items: [Item] = []
        var columns: [String] = []
        for name in Set(names).sorted() {
            guard let position = schema.position(of: name), let property = schema.property(at: position) else { continue }
            switch property.storage {
            case .attribute(let column, let type, _):
                items.append(.attribute(position: position, type: type))
                columns.append(column.quotedSQLIdentifier)
            case .toOne(let column, let orderColumn):
                items.append(.toOne(position: position, ordered: orderColumn != nil))
                columns.append(column.quotedSQLIdentifier)
                columns.append(orderColumn?.quotedSQLIdentifier ?? "NULL")
            case .toMany(let table, let sourceColumn, let targetColumn, let sourceOrder, let targetOrder):
                items.append(.toMany(position: position, table: table, sourceColumn: sourceColumn, targetColumn: targetColumn,
                                     sourceOrder: sourceOrder, targetOrder: targetOrder))
            }
        }
        self.items = items
        selectList = columns.isEmpty ? "NULL" : columns.joined(separator: ", ")
    }

    /// The payload of record `globalID`, whose row `statement` is on, its selected columns from `firstColumn`.
    func payload(of globalID: GlobalID, from statement: RawStatement, firstColumn: Int32) throws -> [UInt8] {
        var writer = WireWriter(capacity: 128)
        writer.byte(0)
        writer.count(items.count)
        var column = firstColumn
        for item in items {
            switch item {
            case .attribute(let position, let type):
                writer.count(position)
                let stored = DatabaseValue(sqliteStatement: statement.handle, index: column)
                column += 1
                var value = ValueCoder.attributeValue(stored, for: type)
                if type.isBinary, case .string(let text) = value, text.hasPrefix(BlobStore.referencePrefix) {
                    let hex = String(text.dropFirst(BlobStore.referencePrefix.count))
                    do {
                        value = .binary(try store.blobs.read(digest: hex))
                    } catch {
                        if let packed = store.blobs.packed {
                            throw StoreError(.damaged, path: store.path,
                                             message: "the external value \(hex) of \(schema.entity) \(globalID) is not in \(packed.path) as it was when checked (missing, or not of its SHA-256)",
                                             hint: "the file changed after it was read; run the same command again")
                        }
                        throw StoreError(.damaged, path: store.path,
                                         message: "the external value \(hex) of \(schema.entity) \(globalID) is missing (\(store.blobs.fileURL(forDigest: hex).path))",
                                         hint: "restore the blob folder from a backup; `storekeep check` lists every missing file")
                    }
                }
                ChangePayload.write(value, to: &writer)
            case .toOne(let position, let ordered):
                writer.count(position)
                let target = statement.text(column)
                let order: Int64? = ordered && statement.columnType(column + 1) != SQLITE_NULL ? statement.int64(column + 1) : nil
                column += 2
                ChangePayload.writeReference(target.map(GlobalID.init), order: order, to: &writer)
            case .toMany(let position, let table, let sourceColumn, let targetColumn, let sourceOrder, let targetOrder):
                writer.count(position)
                let rows = try Row.fetchAll(db, sql: """
                    SELECT \(targetColumn), \(sourceOrder ?? "NULL"), \(targetOrder ?? "NULL") FROM \(table.quotedSQLIdentifier)
                    WHERE \(sourceColumn) = ? ORDER BY \(targetColumn)
                    """, arguments: [globalID.rawValue])
                let members = try rows.compactMap { row -> MembershipChange? in
                    let place = "a member of \(globalID)"
                    guard let member = try row.optional(at: 0, as: String.self, table: table, row: place, store: store.path) else { return nil }
                    return MembershipChange(member: GlobalID(member), added: true,
                                            order: try row.optional(at: 1, as: Int64.self, table: table, row: place, store: store.path),
                                            inverseOrder: try row.optional(at: 2, as: Int64.self, table: table, row: place, store: store.path))
                }
                ChangePayload.write(members, to: &writer)
            }
        }
        return writer.bytes
    }
}
