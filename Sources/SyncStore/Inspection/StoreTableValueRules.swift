/// The columns of storekeep's own tables whose values storekeep reads back, with the storage
/// classes it writes in each (`docs/format.md`): what ``StoreInspection/forEachDamagedValue(_:)`` checks.
struct StoreTableValueRule {
    let table: String
    let column: String
    let kinds: [InspectedValue.Kind]
    /// The column that names the row in a report.
    let key: String

    /// Every checked column, table by table.
    static let all: [StoreTableValueRule] = {
        let text: [InspectedValue.Kind] = [.text], integer: [InspectedValue.Kind] = [.integer], number: [InspectedValue.Kind] = [.integer, .real]
        func table(_ name: String, key: String, _ columns: [(String, [InspectedValue.Kind])]) -> [StoreTableValueRule] {
            columns.map { StoreTableValueRule(table: name, column: $0.0, kinds: $0.1, key: key) }
        }
        return table("sk_metadata", key: "key", [("key", text), ("value", text + [.null])])
            + table("sk_model", key: "version", [("version", text), ("hash", text), ("definition", text)])
            + table("sk_transaction", key: "id", [("peer", text), ("seq", integer), ("author", text), ("timestamp", number), ("hlc", integer + [.null])])
            + table("sk_change", key: "id", [("tx", integer), ("entity", text), ("gid", text), ("kind", text), ("properties", text),
                                              ("tombstone", text + [.null]), ("payload", [.blob, .null])])
            + table("sk_peer", key: "peer", [("peer", text), ("is_local", integer), ("first_seen", number), ("last_seq", integer),
                                             ("exported_seq", integer), ("last_seen", number + [.null])])
            + table("sk_insert_run", key: "id", [("tx", integer), ("entity", text), ("properties", text), ("first_rowid", integer),
                                                 ("last_rowid", integer), ("records", integer)])
            + table("sk_clock", key: "gid", [("gid", text), ("property", text), ("rank", integer), ("hlc", integer), ("peer", text)])
            + table("sk_member_clock", key: "owner", [("relationship", text), ("owner", text), ("target", text), ("present", integer),
                                                      ("rank", integer), ("hlc", integer), ("peer", text)])
            + table("sk_tombstone", key: "gid", [("gid", text), ("entity", text), ("hlc", integer), ("peer", text), ("identity", text + [.null])])
            + table("sk_seed_mark", key: "seed_set", [("seed_set", text), ("account", text), ("version", integer), ("applied", number)])
    }()
}
