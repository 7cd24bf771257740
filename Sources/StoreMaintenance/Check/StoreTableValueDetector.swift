import SyncStore

/// Values in storekeep's own tables of a kind storekeep never writes there: text where a sequence
/// number belongs, a blob where a key or a peer ID belongs. Commands that read these tables refuse
/// such a store as damaged (exit 65); `check` says where the damage is
/// (``SyncStore/StoreInspection/forEachDamagedValue(_:)``).
enum StoreTableValueDetector {
    /// Reports, per column, the rows whose value is of another kind, or text that is not UTF-8 or
    /// holds a NUL (read back, such text would come out changed); one finding per column and problem.
    static func check(_ context: CheckContext) throws {
        try context.inspection.forEachDamagedValue { damaged in
            switch damaged.problem {
            case .otherKind(let example, let allowed):
                report(damaged, holding: example.map(describe) ?? "a value of another kind",
                       expected: "only \(allowed.filter { $0 != .null }.map(\.rawValue).joined(separator: " or "))", to: context)
            case .damagedText:
                report(damaged, holding: "text that is not UTF-8 or holds a NUL character", expected: "UTF-8 text without NUL characters", to: context)
            }
        }
    }

    private static func report(_ damaged: DamagedStoreValues, holding value: String, expected: String, to context: CheckContext) {
        let count = damaged.rows
        context.add(.storeDamagedValue, property: "\(damaged.table).\(damaged.column)") {
            var finding = CheckFinding(
                code: .storeDamagedValue,
                message: "\(damaged.table).\(damaged.column) holds \(value) in \(count) row\(count == 1 ? "" : "s") (the first: \(damaged.keyColumn) \(damaged.firstKey.description)), "
                    + "where storekeep writes \(expected)",
                hint: "the store was written around storekeep: commands that read this table refuse it; restore the store from a backup")
            finding.table = damaged.table
            finding.column = damaged.column
            return finding
        }
    }

    /// A stored value for a message: its kind, and the value when it is short.
    private static func describe(_ value: InspectedValue) -> String {
        switch value {
        case .null: return "NULL"
        case .text(let text): return "the text '\(text.prefix(60))\(text.count > 60 ? "…" : "")'"
        case .integer, .real: return "the number \(value.description)"
        case .blob: return "the blob \(value.description)"
        }
    }
}
