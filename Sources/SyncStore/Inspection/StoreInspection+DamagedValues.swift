import Foundation
import GRDB

extension StoreInspection {
    /// Hands over, per column of storekeep's own tables, the values of a kind storekeep never
    /// writes there, then the text that is not UTF-8 or holds a NUL; one report per column and
    /// problem, table by table. Each table is read at most twice, whatever its number of columns;
    /// tables and columns the store lacks are skipped.
    public func forEachDamagedValue(_ body: (DamagedStoreValues) throws -> Void) throws {
        var tables: [String] = []
        for rule in StoreTableValueRule.all where !tables.contains(rule.table) { tables.append(rule.table) }
        for name in tables {
            guard let present = try columns(ofTable: name) else { continue }
            let checked = StoreTableValueRule.all.filter { $0.table == name && present.contains($0.column) && present.contains($0.key) }
            guard let key = checked.first.map({ InspectionSQL.identifier($0.key) }) else { continue }
            try otherKinds(checked, key: key, body)
            try damagedText(checked.filter { $0.kinds.contains(.text) }, key: key, body)
        }
    }

    /// One pass over a table: per column, how many rows hold a storage class it never holds, and
    /// the key of the first of them.
    private func otherKinds(_ checked: [StoreTableValueRule], key: String, _ body: (DamagedStoreValues) throws -> Void) throws {
        guard let table = checked.first.map({ InspectionSQL.identifier($0.table) }) else { return }
        let wrong = checked.map { "typeof(\(InspectionSQL.identifier($0.column))) NOT IN \(InspectionSQL.list($0.kinds.map(\.rawValue)))" }
        let select = wrong.enumerated().map { index, condition in
            "SUM(CASE WHEN \(condition) THEN 1 ELSE 0 END) AS n\(index), MIN(CASE WHEN \(condition) THEN \(key) END) AS f\(index)"
        }
        guard let row = try reading({ try Row.fetchOne(db, sql: "SELECT \(select.joined(separator: ", ")) FROM \(table)") }) else { return }
        for (index, rule) in checked.enumerated() {
            guard let count = row.stored("n\(index)", as: Int.self), count > 0 else { continue }
            let first = row.storedValue("f\(index)")
            let example = try reading {
                try Row.fetchOne(db, sql: "SELECT \(InspectionSQL.identifier(rule.column)) AS v FROM \(table) WHERE \(key) IS ? AND \(wrong[index])",
                                 arguments: [first])
            }
            try body(DamagedStoreValues(table: rule.table, column: rule.column, keyColumn: rule.key, rows: count, firstKey: InspectedValue(first),
                                        problem: .otherKind(example: example.map { InspectedValue($0.storedValue("v")) }, allowed: rule.kinds)))
        }
    }

    /// One pass over a table's text columns: the rows holding a NUL or a byte over 127 (only such
    /// text can be damaged this way) are read as bytes and checked for UTF-8.
    private func damagedText(_ checked: [StoreTableValueRule], key: String, _ body: (DamagedStoreValues) throws -> Void) throws {
        guard let table = checked.first.map({ InspectionSQL.identifier($0.table) }) else { return }
        let names = checked.map { InspectionSQL.identifier($0.column) }
        let suspect = names.map { name in
            "(typeof(\(name)) = 'text' AND (instr(CAST(\(name) AS BLOB), X'00') > 0 OR \(name) GLOB '*[^' || char(1) || '-' || char(127) || ']*'))"
        }
        let bytes = names.enumerated().map { "CAST(\($0.element) AS BLOB) AS b\($0.offset), typeof(\($0.element)) = 'text' AS t\($0.offset)" }
        var counts = Array(repeating: 0, count: checked.count)
        var firsts = Array(repeating: DatabaseValue.null, count: checked.count)
        try reading {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(key) AS k, \(bytes.joined(separator: ", ")) FROM \(table) WHERE \(suspect.joined(separator: " OR "))
                """)
            while let row = try rows.next() {
                for index in checked.indices {
                    guard row.stored("t\(index)", as: Bool.self) == true, let text = row.stored("b\(index)", as: Data.self),
                          text.contains(0) || String(validating: text, as: UTF8.self) == nil else { continue }
                    if counts[index] == 0 { firsts[index] = row.storedValue("k") }
                    counts[index] += 1
                }
            }
        }
        for (index, rule) in checked.enumerated() where counts[index] > 0 {
            try body(DamagedStoreValues(table: rule.table, column: rule.column, keyColumn: rule.key, rows: counts[index],
                                        firstKey: InspectedValue(firsts[index]), problem: .damagedText))
        }
    }
}
