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
    /// holds a NUL (read back, such text would come out changed); one finding per column and
    /// problem. Each table is read at most twice, whatever its number of columns.
    static func check(_ context: CheckContext) throws {
        var tables: [String] = []
        for column in columns where !tables.contains(column.table) { tables.append(column.table) }
        for name in tables {
            guard let present = try context.columns(ofTable: name) else { continue }
            let checked = columns.filter { $0.table == name && present.contains($0.column) && present.contains($0.key) }
            guard let key = checked.first.map({ CheckSQL.identifier($0.key) }) else { continue }
            try checkKinds(checked, key: key, context)
            try checkText(checked.filter { $0.kinds.contains("text") }, key: key, context)
        }
    }

    /// One pass over a table: per column, how many rows hold a storage class it never holds, and
    /// the key of the first of them.
    private static func checkKinds(_ checked: [Column], key: String, _ context: CheckContext) throws {
        guard let table = checked.first.map({ CheckSQL.identifier($0.table) }) else { return }
        let wrong = checked.map { "typeof(\(CheckSQL.identifier($0.column))) NOT IN \(CheckSQL.list($0.kinds))" }
        let select = wrong.enumerated().map { index, condition in
            "SUM(CASE WHEN \(condition) THEN 1 ELSE 0 END) AS n\(index), MIN(CASE WHEN \(condition) THEN \(key) END) AS f\(index)"
        }
        guard let row = try Row.fetchOne(context.db, sql: "SELECT \(select.joined(separator: ", ")) FROM \(table)") else { return }
        for (index, column) in checked.enumerated() {
            guard let count = row.stored("n\(index)", as: Int.self), count > 0 else { continue }
            let first = row.storedValue("f\(index)")
            let example = try Row.fetchOne(context.db, sql: "SELECT \(CheckSQL.identifier(column.column)) AS v FROM \(table) WHERE \(key) IS ? AND \(wrong[index])",
                                           arguments: [first])
            report(column, holding: example.map { describe($0.storedValue("v")) } ?? "a value of another kind", rows: count, first: first,
                   expected: "only \(column.kinds.filter { $0 != "null" }.joined(separator: " or "))", to: context)
        }
    }

    /// One pass over a table's text columns: the rows holding a NUL or a byte over 127 (only such
    /// text can be damaged this way) are read as bytes and checked for UTF-8.
    private static func checkText(_ checked: [Column], key: String, _ context: CheckContext) throws {
        guard let table = checked.first.map({ CheckSQL.identifier($0.table) }) else { return }
        let names = checked.map { CheckSQL.identifier($0.column) }
        let suspect = names.map { name in
            "(typeof(\(name)) = 'text' AND (instr(CAST(\(name) AS BLOB), X'00') > 0 OR \(name) GLOB '*[^' || char(1) || '-' || char(127) || ']*'))"
        }
        let bytes = names.enumerated().map { "CAST(\($0.element) AS BLOB) AS b\($0.offset), typeof(\($0.element)) = 'text' AS t\($0.offset)" }
        let rows = try Row.fetchCursor(context.db, sql: """
            SELECT \(key) AS k, \(bytes.joined(separator: ", ")) FROM \(table) WHERE \(suspect.joined(separator: " OR "))
            """)
        var counts = Array(repeating: 0, count: checked.count)
        var firsts = Array(repeating: DatabaseValue.null, count: checked.count)
        while let row = try rows.next() {
            for index in checked.indices {
                guard row.stored("t\(index)", as: Bool.self) == true, let text = row.stored("b\(index)", as: Data.self),
                      text.contains(0) || String(validating: text, as: UTF8.self) == nil else { continue }
                if counts[index] == 0 { firsts[index] = row.storedValue("k") }
                counts[index] += 1
            }
        }
        for (index, column) in checked.enumerated() where counts[index] > 0 {
            report(column, holding: "text that is not UTF-8 or holds a NUL character", rows: counts[index], first: firsts[index],
                   expected: "UTF-8 text without NUL characters", to: context)
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
