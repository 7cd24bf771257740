import Foundation
import GRDB
import LegacyFormats
import ObjectModel
import SyncStore

/// How SQLite copies one entity's rows from a Core Data store into a store by itself
/// (`INSERT … SELECT`, ``SyncStore/BulkLoad/importCopiedBatch(_:checkpoint:)``), and how
/// the reading thread checks and digests the same rows meanwhile.
///
/// Both follow `CoreDataStoreReader`'s decoding (dates are seconds since 2001, Booleans integers,
/// UUIDs 16-byte BLOBs, inline external-storage values behind a `0x01` marker) for the storage
/// classes Core Data writes: ``expressions`` in SQL for the copy, ``digest(row:into:sum:)`` in
/// Swift from the raw columns (``readSQL``). A row holding anything else (text in an integer
/// column, a large or file-backed binary value, text that is not UTF-8, …) is refused by
/// ``digest(row:into:sum:)``, and its batch goes record by record, where it is converted or
/// rejected as before. An entity whose attribute types or relationships a copy cannot carry
/// (join tables, composite attributes, …) has no plan at all. The two sides are independent
/// code: the migration's verification compares what the digest read with what the copy stored.
struct CoreDataCopyPlan {
    /// Core Data dates count from 2001-01-01; the store's from 1970-01-01.
    static let referenceDateOffset = Date.timeIntervalBetween1970AndReferenceDate

    /// How the reading side turns one raw attribute column into the stored value. The integer
    /// types carry their range and Double and Float their type, so that a value the type cannot
    /// hold exactly is refused (and its record rejected record by record).
    enum Decoding {
        case integer(ClosedRange<Int64>), boolean, double(AttributeType), date, text, decimal, uuid, binary, inlineBinary
    }

    /// One to-one relationship's raw columns, by position in ``readSQL``.
    struct ToOneColumns {
        let key: Int32
        let entity: Int32?
        let order: Int32?
        let declaredPrefix: [UInt8]
        /// With an entity column: the global-ID prefix of each `Z_ENT` it may hold (the
        /// destination and its sub-entities); any other value is refused.
        let prefixByNumber: [Int64: [UInt8]]
    }

    let entity: String
    let storage: CoreDataEntityStorage
    /// One expression per column of the store's layout for `entity`, in its order.
    let expressions: [String]
    /// The raw columns the reading side selects after `Z_PK`, in order.
    private let rawColumns: [String]
    let decodings: [Decoding]
    let toOnes: [ToOneColumns]
    let globalIDPrefix: [UInt8]
    /// The source store's path, for messages.
    let sourcePath: String

    /// The plan for `entity`, or `nil` when its records must go record by record.
    init?(entity: String, reader: CoreDataStoreReader, store: SyncStore) {
        guard let storage = reader.storage(of: entity), let layout = BulkCopyLayout(of: entity, in: store),
              storage.joinedToManyNames.isEmpty, layout.joinedToManyNames.isEmpty,
              Set(storage.attributes.map(\.name)) == Set(layout.attributes.map(\.name)), storage.attributes.count == layout.attributes.count,
              Set(storage.toOnes.map(\.name)) == Set(layout.toOnes.map(\.name)), storage.toOnes.count == layout.toOnes.count
        else { return nil }
        self.entity = entity
        self.storage = storage
        sourcePath = reader.path
        globalIDPrefix = Array(reader.globalIDPrefix(of: entity).utf8)
        var expressions = ["\(reader.globalIDPrefix(of: entity).quotedSQLLiteral) || Z_PK", "NULL", "NULL"]
        var raw: [String] = []
        var decodings: [Decoding] = []
        for attribute in layout.attributes {
            guard let column = storage.attributes.first(where: { $0.name == attribute.name }),
                  let (expression, decoding) = Self.attribute(column) else { return nil }
            expressions.append(expression)
            raw.append(column.column)
            decodings.append(decoding)
        }
        var orders: [String] = []
        var toOnes: [ToOneColumns] = []
        for toOne in layout.toOnes {
            guard let column = storage.toOnes.first(where: { $0.name == toOne.name }) else { return nil }
            let key = column.column.quotedSQLIdentifier
            let empty = "\(key) IS NULL OR \(key) = 0"
            expressions.append("CASE WHEN \(empty) THEN NULL ELSE \(Self.prefix(of: column, reader: reader)) || \(key) END")
            func rawColumn(_ name: String) -> Int32 {
                raw.append(name)
                return Int32(raw.count)  // Z_PK is column 0
            }
            let keyIndex = rawColumn(column.column)
            let entityIndex = column.entityColumn.map(rawColumn)
            var orderIndex: Int32?
            if toOne.hasOrder {
                if let orderColumn = column.orderColumn {
                    orders.append("CASE WHEN \(empty) THEN NULL ELSE \(orderColumn.quotedSQLIdentifier) END")
                    orderIndex = rawColumn(orderColumn)
                } else {
                    orders.append("NULL")
                }
            }
            let destinations = [column.destination] + reader.model.descendants(of: column.destination).map(\.name)
            let numbers = reader.entityNumbers
            toOnes.append(ToOneColumns(
                key: keyIndex, entity: entityIndex, order: orderIndex, declaredPrefix: Array(reader.globalIDPrefix(of: column.destination).utf8),
                prefixByNumber: Dictionary(destinations.compactMap { name in numbers[name].map { ($0, Array(reader.globalIDPrefix(of: name).utf8)) } },
                                           uniquingKeysWith: { first, _ in first })))
        }
        self.expressions = expressions + orders
        rawColumns = raw
        self.decodings = decodings
        self.toOnes = toOnes
    }

    /// The raw rows of the entity after primary key `?1`, at most `?2`: `Z_PK`, then the
    /// attributes' columns in the layout's order, then each to-one's key, entity and order columns.
    var readSQL: String {
        """
        SELECT \((["Z_PK"] + rawColumns).map(\.quotedSQLIdentifier).joined(separator: ", ")) FROM \(storage.table.quotedSQLIdentifier)
        WHERE \(storage.rowCondition) AND Z_PK > ? ORDER BY Z_PK LIMIT ?
        """
    }

    /// The copy of the rows with primary keys after `after` through `last`, `rows` of them.
    func copy(after: Int64, through last: Int64, rows: Int) -> BulkCopy {
        BulkCopy(entity: entity, sourceTable: storage.table, expressions: expressions,
                 filter: "\(storage.rowCondition) AND Z_PK > ? AND Z_PK <= ?", arguments: [after, last], rows: rows, sourcePath: sourcePath)
    }

    /// The target global ID's prefix: by the target's `Z_ENT` when the destination has sub-entities.
    private static func prefix(of toOne: CoreDataEntityStorage.ToOne, reader: CoreDataStoreReader) -> String {
        let declared = reader.globalIDPrefix(of: toOne.destination).quotedSQLLiteral
        guard let entityColumn = toOne.entityColumn else { return declared }
        let cases = reader.entityNumbers.sorted { $0.value < $1.value }
            .map { "WHEN \($0.value) THEN \(reader.globalIDPrefix(of: $0.key).quotedSQLLiteral)" }.joined(separator: " ")
        return "(CASE \(entityColumn.quotedSQLIdentifier) \(cases) ELSE \(declared) END)"
    }

    /// The copy's expression of one attribute and how the reading side decodes it, or `nil` for a
    /// type a copy does not carry.
    private static func attribute(_ attribute: CoreDataEntityStorage.Attribute) -> (String, Decoding)? {
        let column = attribute.column.quotedSQLIdentifier
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return (column, .integer(attribute.type.integerRange ?? Int64.min...Int64.max))
        case .boolean:
            return ("(\(column) != 0)", .boolean)
        case .double, .float:
            return ("CAST(\(column) AS REAL)", .double(attribute.type))
        case .date:
            return ("(\(column) + \(referenceDateOffset))", .date)
        case .string, .uri:
            return (column, .text)
        case .decimal:
            return ("CAST(\(column) AS TEXT)", .decimal)
        case .uuid:
            let hex = "hex(\(column))"
            let text = [(1, 8), (9, 4), (13, 4), (17, 4), (21, 12)].map { "substr(\(hex), \($0.0), \($0.1))" }.joined(separator: " || '-' || ")
            return ("CASE WHEN \(column) IS NULL THEN NULL ELSE \(text) END", .uuid)
        case .binary, .transformable:
            guard attribute.allowsExternalStorage else { return (column, .binary) }
            // Inline values only (the reading side refuses the rest): a 0x01 marker and the bytes,
            // or bytes without a marker.
            return ("CASE WHEN substr(\(column), 1, 1) = x'01' THEN substr(\(column), 2) ELSE \(column) END", .inlineBinary)
        case .objectID, .composite, .undefined:
            return nil
        }
    }
}
