import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

/// Writes the canonical `R` line of one record (see `docs/format.md#the-content-digest`), from a
/// stored row or from a record about to be imported, so that both sides of a migration compare.
/// A class: a migration fetches its entity's encoder for every record it reads, and a struct of
/// this many arrays was copied and destroyed each time.
final class RecordLineEncoder: Sendable {
    let entity: String
    let attributes: [AttributeDescription]
    /// ``attributes``' name, type and default, read for every record.
    let attributeFacts: [EntityPlanColumn]
    let toOne: [(name: String, column: String)]
    /// ` <name>=` of each of ``attributes`` and ` <name>->` of each of ``toOne``, as UTF-8, made once.
    let attributeLabels: [[UInt8]]
    let toOneLabels: [[UInt8]]
    /// Selects the columns the line needs, for rows of exactly one entity (bound to `?`), in storage
    /// order: the lines are summed (``RecordDigestSum``), so any order gives the same result, and
    /// storage order reads the table front to back instead of jumping through it by global ID.
    let selectSQL: String

    /// `nil` when a stored attribute has no column in `layout` (a model inconsistent with itself).
    init?(layout: StoreLayout, model: ManagedModel, entity: String, table: String) {
        let columns = layout.attributeColumns[entity] ?? [:]
        self.entity = entity
        attributes = model.attributes(of: entity).filter { !$0.isTransient }.sorted { $0.name < $1.name }
        attributeFacts = attributes.map(EntityPlanColumn.init)
        toOne = (layout.relationships[entity] ?? [:]).compactMap { name, storage -> (String, String)? in
            if case .column(_, let column, _) = storage { return (name, column) }
            return nil
        }.sorted { $0.0 < $1.0 }
        attributeLabels = attributes.map { Array(" \($0.name)=".utf8) }
        toOneLabels = toOne.map { Array(" \($0.name)->".utf8) }
        let attributeColumns = attributes.compactMap { columns[$0.name] }
        guard attributeColumns.count == attributes.count else { return nil }
        let selected = ["_gid", "_seed_set", "_seed_version"] + attributeColumns + toOne.map(\.column)
        selectSQL = "SELECT \(selected.map(\.quotedSQLIdentifier).joined(separator: ", ")) FROM \(table.quotedSQLIdentifier) WHERE _entity = ?"
    }

    /// Writes the line of the current row of `statement` (prepared from ``selectSQL``) into `line`;
    /// returns how many to-one links the row holds.
    func write(row statement: RawStatement, into line: inout RecordLineBuffer) -> Int {
        write(rowOf: statement.handle, into: &line)
    }

    /// Writes the line of the current row of `handle`, whose first columns are those of
    /// ``selectSQL`` (any columns after them are not read); returns how many to-one links it holds.
    func write(rowOf handle: OpaquePointer, into line: inout RecordLineBuffer) -> Int {
        line.clear()
        line.append(literal: "R ")
        Self.appendField(column: 0, of: handle, into: &line)
        line.append(byte: UInt8(ascii: " "))
        if sqlite3_column_type(handle, 1) == SQLITE_NULL { line.append(literal: "1:-") } else { Self.appendField(column: 1, of: handle, into: &line) }
        line.append(byte: UInt8(ascii: " "))
        if sqlite3_column_type(handle, 2) == SQLITE_NULL { line.append(byte: UInt8(ascii: "-")) } else { line.append(decimal: sqlite3_column_int64(handle, 2)) }
        // By index: a `for` over the columns would copy each one (a string and a default value) per record.
        for index in attributeFacts.indices {
            let column = Int32(3 + index)
            line.append(bytes: attributeLabels[index])
            let type = attributeFacts[index].type
            switch (sqlite3_column_type(handle, column), type) {
            case (SQLITE_NULL, _):
                line.append(byte: UInt8(ascii: "~"))
            case (SQLITE_INTEGER, .integer16), (SQLITE_INTEGER, .integer32), (SQLITE_INTEGER, .integer64):
                line.append(byte: UInt8(ascii: "i"))
                line.append(decimal: sqlite3_column_int64(handle, column))
            case (SQLITE_INTEGER, .boolean):
                line.append(literal: sqlite3_column_int64(handle, column) != 0 ? "b1" : "b0")
            case (SQLITE_FLOAT, .double), (SQLITE_FLOAT, .float):
                line.append(byte: UInt8(ascii: "d"))
                line.append(hex: sqlite3_column_double(handle, column).bitPattern)
            case (SQLITE_FLOAT, .date):
                line.append(byte: UInt8(ascii: "t"))
                line.append(hex: Self.dateBits(sqlite3_column_double(handle, column)))
            case (SQLITE_TEXT, .string):
                line.append(byte: UInt8(ascii: "s"))
                Self.appendField(column: column, of: handle, into: &line)
            default:
                // Everything rarer goes through the one general encoder.
                line.append(text: SyncStore.encode(Self.databaseValue(column: column, of: handle), type: type))
            }
        }
        var links = 0
        for index in toOne.indices {
            let column = Int32(3 + attributes.count + index)
            line.append(bytes: toOneLabels[index])
            if sqlite3_column_type(handle, column) == SQLITE_NULL {
                line.append(byte: UInt8(ascii: "-"))
            } else {
                links += 1
                Self.appendField(column: column, of: handle, into: &line)
            }
        }
        return links
    }

    /// Writes the line `record` will have once imported into `line`.
    func write(_ record: ImportRecord, into line: inout RecordLineBuffer) {
        line.clear()
        line.append(literal: "R ")
        line.appendField(record.globalID.rawValue)
        line.append(byte: UInt8(ascii: " "))
        if let seed = record.seed {
            line.appendField(seed.set)
            line.append(byte: UInt8(ascii: " "))
            line.append(decimal: Int64(seed.version))
        } else {
            line.append(literal: "1:- -")
        }
        for index in attributeFacts.indices {
            line.append(bytes: attributeLabels[index])
            let type = attributeFacts[index].type
            let given = record.values.value(named: attributeFacts[index].name, nameIsASCII: attributeFacts[index].nameIsASCII)
                ?? attributeFacts[index].defaultValue ?? .null
            let stored = ValueCoder.normalized(given, type: type) ?? .null
            switch (stored, type) {
            case (.null, _):
                line.append(byte: UInt8(ascii: "~"))
            case (.integer(let number), .integer16), (.integer(let number), .integer32), (.integer(let number), .integer64):
                line.append(byte: UInt8(ascii: "i"))
                line.append(decimal: number)
            case (.boolean(let flag), .boolean):
                line.append(literal: flag ? "b1" : "b0")
            case (.double(let number), .double), (.double(let number), .float):
                line.append(byte: UInt8(ascii: "d"))
                line.append(hex: number.bitPattern)
            case (.date(let date), .date):
                line.append(byte: UInt8(ascii: "t"))
                line.append(hex: Self.dateBits(date.timeIntervalSince1970))
            case (.string(let text), .string):
                // A string holding U+0000 is stored as a BLOB: the general encoder writes that.
                if !line.appendTextField(marker: UInt8(ascii: "s"), text) {
                    line.append(text: SyncStore.encode(ValueCoder.databaseValue(stored), type: type))
                }
            default:
                line.append(text: SyncStore.encode(ValueCoder.databaseValue(stored), type: type))
            }
        }
        for index in toOne.indices {
            line.append(bytes: toOneLabels[index])
            if let target = record.toOne[toOne[index].name] { line.appendField(target.rawValue) } else { line.append(byte: UInt8(ascii: "-")) }
        }
    }

    /// The line the record will have once imported, as text.
    func line(for record: ImportRecord) -> String {
        var line = RecordLineBuffer()
        write(record, into: &line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// The bits the line gives a date stored as `seconds` since 1970: those of the date read back
    /// (``ValueCoder`` makes a `Date` of it), so that both sides of a migration agree to the bit.
    static func dateBits(_ seconds: Double) -> UInt64 {
        Date(timeIntervalSince1970: seconds).timeIntervalSince1970.bitPattern
    }

    /// Appends `<length>:<text>` for a TEXT (or BLOB) column.
    private static func appendField(column: Int32, of handle: OpaquePointer, into line: inout RecordLineBuffer) {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let text = sqlite3_column_text(handle, column) else {
            line.appendField(utf8: UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        line.appendField(utf8: UnsafeBufferPointer(start: text, count: count))
    }

    /// The column as a GRDB value, for the rare cases the general encoder handles.
    private static func databaseValue(column: Int32, of handle: OpaquePointer) -> DatabaseValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, column).databaseValue
        case SQLITE_FLOAT: return sqlite3_column_double(handle, column).databaseValue
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return "".databaseValue }
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self).databaseValue
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column) else { return Data().databaseValue }
            return Data(bytes: bytes, count: count).databaseValue
        default: return .null
        }
    }
}
