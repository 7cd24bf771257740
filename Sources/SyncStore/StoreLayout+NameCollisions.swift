import ObjectModel

extension StoreLayout {
    /// The columns every entity table has before the model's own (`docs/format.md`).
    static let fixedEntityColumns = baseEntityColumns + [insertRunColumn]
    /// The fixed columns of every format's entity tables.
    static let baseEntityColumns = ["_rowid", "_gid", "_entity", "_created", "_updated", "_seed_set", "_seed_version"]
    /// The column naming a record's insert run (format 3 and later).
    static let insertRunColumn = "_insert_run"

    /// Model names whose SQL names SQLite cannot tell apart, one sentence each naming both.
    ///
    /// SQLite compares table, index and column names without regard to the case of ASCII letters
    /// (and GRDB, which reads them, of any letter: ``folded(_:)``), and the layout builds names by joining model names with `_` (`e_<Entity>`,
    /// `e_<Entity>_r_<relationship>`, `j_<Entity>_<relationship>`): entities `Task` and `TASK`,
    /// attributes `x` and `X`, an entity `A_r_b` beside a to-one `A.b`, or relationships `A.b_c`
    /// and `A_b.c` would need one name for two things. Such a model is refused when a store is
    /// created for it (see `docs/format.md`); an empty array means every name is distinct.
    func nameCollisions() -> [String] {
        var objects: [(name: String, origin: String)] = []
        // Indexes are named after their table: when two tables collide, so do their indexes, and
        // saying so again would add nothing.
        let distinctTables = Set(Dictionary(grouping: entityTables + joinTables, by: Self.folded).values.filter { $0.count == 1 }.flatMap { $0 })
        for table in entityTables {
            let family = "the table of entity \(table.dropFirst(Self.entityTablePrefix.count))"
            objects.append((table, family))
            guard distinctTables.contains(table) else { continue }
            objects.append((StoreSchema.gidIndexName(of: table), "the _gid index of \(family)"))
            if sharedTables.contains(table) { objects.append(("\(table)__entity", "the _entity index of \(family)")) }
            for (column, origin) in columnOrigins[table] ?? [] where column.hasPrefix("r_") {
                objects.append(("\(table)_\(column)", "the index of \(origin)"))
            }
        }
        var collisions: [String] = []
        for table in joinTables {
            let owners = (joinTableOwners[table] ?? []).sorted()
            let origin = "the join table of relationship \(owners.first ?? table)"
            objects.append((table, origin))
            if distinctTables.contains(table) { objects.append(("\(table)_target", "the target index of \(origin)")) }
            if owners.count > 1 {
                collisions.append(Self.sentence((table, origin), (table, "the join table of relationship \(owners[1])")))
            }
        }
        collisions += Self.clashes(in: objects)
        for table in entityTables {
            let columns = Self.fixedEntityColumns.map { ($0, "storekeep's column \($0)") } + (columnOrigins[table] ?? [])
            collisions += Self.clashes(in: columns.map { (name: $0.0, origin: "\($0.1) (a column of \(table))") })
        }
        return collisions
    }

    /// One sentence per pair of `names` that SQLite takes for one.
    private static func clashes(in names: [(name: String, origin: String)]) -> [String] {
        var first: [String: (name: String, origin: String)] = [:]
        var sentences: [String] = []
        for entry in names {
            let key = folded(entry.name)
            if let earlier = first[key] {
                sentences.append(sentence(earlier, entry))
            } else {
                first[key] = entry
            }
        }
        return sentences
    }

    private static func sentence(_ one: (name: String, origin: String), _ other: (name: String, origin: String)) -> String {
        let pair = "\(one.origin.shownInMessage) and \(other.origin.shownInMessage)"
        if one.name == other.name { return "\(pair) would both be named \(one.name.shownInMessage) in SQLite" }
        return "\(pair) would be named \(one.name.shownInMessage) and \(other.name.shownInMessage), which differ only in case (SQLite and storekeep's reads do not tell such names apart)"
    }

    /// `name` as names are compared: without regard to case. SQLite ignores the case of ASCII
    /// letters in table, index and column names; GRDB finds a column of a row by name ignoring the
    /// case of every letter (`É` is `é`), so storekeep folds them all.
    static func folded(_ name: String) -> String { name.lowercased() }
}
