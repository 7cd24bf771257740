import Foundation
import GRDB

/// Values in storekeep's own tables (`sk_…`) of a kind storekeep never writes there: text where
/// a sequence number belongs, a blob where a key or a peer ID belongs. Commands that read these
/// tables refuse such a store as damaged (exit 65); `check` says where the damage is.
enum StoreTableValueDetector {
    /// One column of a storekeep table and the storage classes (`typeof`) it may hold.
    struct Column {
        let table: String
        let column: String
        let kinds: [String]
        /// The column that names the row in a message.
        let key: String
    }

    static let text = ["text"], integer = ["integer"], number = ["integer", "real"]

    /// Every column of storekeep's tables whose values storekeep reads back (`docs/format.md`).
    static let columns: [Column] = {
        func table(_ name: String, key: String, _ columns: [(String, [String])]) -> [Column] {
            columns.map { Column(table: name, column: $0.0, kinds: $0.1, key: key) }
        }
        return table("sk_metadata", key: "key", [("key", text), ("value", text + ["null"])])
            + table("sk_model", key: "version", [("version", text), ("hash", text), ("definition", text)])
            + table("sk_transaction", key: "id", [("peer", text), ("seq", integer), ("author", text), ("timestamp", number), ("hlc", integer + ["null"])])
            + table("sk_change", key: "id", [("tx", integer), ("entity", text), ("gid", text), ("kind", text), ("properties", text),
                                              ("tombstone", text + ["null"]), ("payload", ["blob", "null"])])
            + table("sk_peer", key: "peer", [("peer", text), ("is_local", integer), ("first_seen", number), ("last_seq", integer),
                                             ("exported_seq", integer), ("last_seen", number + ["null"])])
            + table("sk_insert_run", key: "id", [("tx", integer), ("entity", text), ("properties", text), ("first_rowid", integer),
                                                 ("last_rowid", integer), ("records", integer)])
            + table("sk_clock", key: "gid", [("gid", text), ("property", text), ("rank", integer), ("hlc", integer), ("peer", text)])
            + table("sk_member_clock", key: "owner", [("relationship", text), ("owner", text), ("target", text), ("present", integer),
                                                      ("rank", integer), ("hlc", integer), ("peer", text)])
            + table("sk_tombstone", key: "gid", [("gid", text), ("entity", text), ("hlc", integer), ("peer", text), ("identity", text + ["null"])])
            + table("sk_seed_mark", key: "seed_set", [("seed_set", text), ("account", text), ("version", integer), ("applied", number)])
    }()

    /// Reports, per column, the rows whose value is of another kind, or text that is not UTF-8 or
    /// holds a NUL (read back, such text would come out changed); one finding per column and problem.
    static func check(_ context: CheckContext) throws {
        for column in columns {
            guard let present = try context.columns(ofTable: column.table), present.contains(column.column), present.contains(column.key) else { continue }
            let kinds = CheckSQL.list(column.kinds)
            let name = CheckSQL.identifier(column.column), key = CheckSQL.identifier(column.key), table = CheckSQL.identifier(column.table)
            if let row = try Row.fetchOne(context.db, sql: """
                SELECT COUNT(*) AS n, MIN(\(key)) AS first FROM \(table) WHERE typeof(\(name)) NOT IN \(kinds)
                """), let count = row.stored("n", as: Int.self), count > 0 {
                let example = try Row.fetchOne(context.db, sql: "SELECT \(name) AS v FROM \(table) WHERE \(key) IS ? AND typeof(\(name)) NOT IN \(kinds)",
                                               arguments: [row.storedValue("first")])
                let value = example.map { describe($0.storedValue("v")) } ?? "a value of another kind"
                report(column, holding: value, rows: count, first: row.storedValue("first"),
                       expected: "only \(column.kinds.filter { $0 != "null" }.joined(separator: " or "))", to: context)
            }
            guard column.kinds.contains("text") else { continue }
            // Only text with a NUL or a byte over 127 can be damaged this way: the rest is never read.
            let suspects = try Row.fetchCursor(context.db, sql: """
                SELECT CAST(\(name) AS BLOB) AS bytes, \(key) AS k FROM \(table)
                WHERE typeof(\(name)) = 'text' AND (instr(CAST(\(name) AS BLOB), X'00') > 0 OR \(name) GLOB '*[^' || char(1) || '-' || char(127) || ']*')
                """)
            var count = 0
            var first: DatabaseValue = .null
            while let row = try suspects.next() {
                let bytes = row.stored("bytes", as: Data.self) ?? Data()
                guard bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil else { continue }
                if count == 0 { first = row.storedValue("k") }
                count += 1
            }
            if count > 0 {
                report(column, holding: "text that is not UTF-8 or holds a NUL character", rows: count, first: first,
                       expected: "UTF-8 text without NUL characters", to: context)
            }
        }
    }

    private static func report(_ column: Column, holding value: String, rows count: Int, first: DatabaseValue, expected: String, to context: CheckContext) {
        context.add(.storeDamagedValue, property: "\(column.table).\(column.column)") {
            var finding = CheckFinding(
                code: .storeDamagedValue,
                message: "\(column.table).\(column.column) holds \(value) in \(count) row\(count == 1 ? "" : "s") (the first: \(column.key) \(CheckSQL.describe(first))), "
                    + "where storekeep writes \(expected)",
                hint: "the store was written around storekeep: commands that read this table refuse it; restore the store from a backup")
            finding.table = column.table
            finding.column = column.column
            return finding
        }
    }

    /// A stored value for a message: its kind, and the value when it is short.
    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .string(let text): return "the text '\(text.prefix(60))\(text.count > 60 ? "…" : "")'"
        case .int64, .double: return "the number \(CheckSQL.describe(value))"
        case .blob: return "the blob \(CheckSQL.describe(value))"
        }
    }
}
