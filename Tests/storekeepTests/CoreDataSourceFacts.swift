import Foundation
import GRDB
import ObjectModel

/// What a Core Data SQLite store holds, read with plain SQL on a private copy: the yardstick the
/// migration tests hold storekeep's results against. It shares no code with storekeep's reader
/// (`LegacyFormats.CoreDataStoreReader`), so a mistake there cannot hide itself here.
///
/// The copy holds the main file and its `-wal` and `-journal` when present (rows only in the
/// `-wal` are counted); the source folder is never opened by SQLite.
final class CoreDataSourceFacts {
    /// One row of `Z_PRIMARYKEY` below the history range (`Z_ENT` < 16000) whose root table exists.
    struct Entity {
        /// `Z_ENT`.
        var number: Int64
        /// `Z_NAME` as stored (an entity renamed by a migration keeps its old name here).
        var storedName: String
        /// `Z_SUPER` (0 for a root).
        var parent: Int64
        /// `Z` + the upper-cased name of the root entity, found by following `Z_SUPER`.
        var table: String
    }

    /// `Z_METADATA.Z_UUID`, the store part of Core Data's object URIs.
    let uuid: String
    /// The entities, by `Z_ENT`.
    let entities: [Int64: Entity]
    /// Rows of exactly each entity (`COUNT(*) … WHERE Z_ENT = n`), by `Z_ENT`.
    let counts: [Int64: Int]
    /// The copy, open.
    let database: DatabaseQueue
    private let folder: TemporaryDirectory

    /// Copies the store at `path` (with `-wal` and `-journal`) and reads its entities and counts.
    init(path: String) throws {
        folder = try TemporaryDirectory()
        let copy = folder.url.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
        for suffix in ["-wal", "-journal", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy.path + suffix)
        }
        database = try DatabaseQueue(path: copy.path)
        (uuid, entities, counts) = try database.read { db in
            let uuid = try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") ?? ""
            let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")
            let byNumber = Dictionary(uniqueKeysWithValues: rows.map { ($0["Z_ENT"] as Int64, $0) })
            var entities: [Int64: Entity] = [:]
            var counts: [Int64: Int] = [:]
            for row in rows {
                let number: Int64 = row["Z_ENT"]
                guard number < 16000 else { continue }
                var root = row
                var seen: Set<Int64> = [number]
                while let parent = root["Z_SUPER"] as Int64?, parent != 0, let next = byNumber[parent], seen.insert(parent).inserted {
                    root = next
                }
                let table = "Z" + (root["Z_NAME"] as String).uppercased()
                guard try db.tableExists(table) else { continue }
                entities[number] = Entity(number: number, storedName: row["Z_NAME"], parent: row["Z_SUPER"] ?? 0, table: table)
                counts[number] = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE Z_ENT = ?", arguments: [number]) ?? 0
            }
            return (uuid, entities, counts)
        }
    }

    deinit {
        try? database.close()
        folder.remove()
    }

    /// All rows of exactly the source's entities.
    var totalRows: Int { counts.values.reduce(0, +) }

    /// Each stored entity number with the name `model` gives it: the entity of the same name, else
    /// the one whose renaming identifier is the stored name (Core Data keeps an entity's old name
    /// in `Z_PRIMARYKEY` after a renaming migration). Entities `model` does not name are absent.
    func modelNames(in model: ManagedModel) -> [Int64: String] {
        var names: [Int64: String] = [:]
        for (number, entity) in entities {
            if let match = model.entity(named: entity.storedName) ?? model.entities.first(where: { $0.elementID == entity.storedName }) {
                names[number] = match.name
            }
        }
        return names
    }

    /// Core Data's URI for a row: `x-coredata://<Z_UUID>/<Entity>/p<Z_PK>`.
    func globalID(entity: String, primaryKey: Int64) -> String {
        "x-coredata://\(uuid)/\(entity)/p\(primaryKey)"
    }

    /// The column names of `table`, in order.
    func columns(of table: String) throws -> [String] {
        try database.read { db in try db.columns(in: table).map(\.name) }
    }

    /// The many-to-many join tables: `Z_<n><NAME>` where `n` is an entity number.
    func joinTables() throws -> [(table: String, entity: Int64, relationship: String)] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { name in
                guard name.hasPrefix("Z_") else { return nil }
                let rest = name.dropFirst(2)
                let digits = rest.prefix { $0.isNumber }
                guard !digits.isEmpty, let number = Int64(digits), entities[number] != nil else { return nil }
                return (name, number, String(rest.dropFirst(digits.count)))
            }
        }
    }

    /// Rows of `sql` as arrays of optional integers.
    func integers(_ sql: String, _ arguments: StatementArguments = []) throws -> [[Int64?]] {
        try database.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                (0..<row.count).map { row[$0] as Int64? }
            }
        }
    }
}
