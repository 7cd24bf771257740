import Foundation
import GRDB
import LegacyFormats
import XcodeModel
import ObjectModel

/// Writes a SQLite store laid out the way Core Data lays one out for a model version, with that
/// version's entity hashes in `Z_METADATA` (`NSStoreModelVersionHashes`, computed by
/// `CoreDataVersionHash`, proven equal to Core Data's on the corpus), so that a migration with the
/// app's bundle finds its version the way it finds a user's store's.
///
/// Entities are numbered in name order; one table `Z<ROOT>` per root entity with `Z_PK`, `Z_ENT`,
/// `Z_OPT` and a `Z<NAME>` column per stored attribute and to-one of the whole tree (`Z_FOK_<NAME>`
/// beside a to-one whose inverse is an ordered to-many); one join table `Z_<a><NAME>` per
/// many-to-many (columns `Z_<a><INVERSE>`, `Z_<b><NAME>`, and `Z_FOK_<b><NAME>` when ordered) or
/// to-many without inverse.
struct CoreDataStoreWriter {
    /// One row: an entity's record, its attribute values by name, to-one targets and join-table
    /// members by primary key, and for a to-one whose inverse is ordered its place there.
    struct Row {
        var entity: String
        var key: Int64
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        var toOne: [String: Int64] = [:]
        var order: [String: Int64] = [:]
        var toMany: [String: [Int64]] = [:]
    }

    let model: ManagedModel
    let storeUUID: String

    init(model: ManagedModel, storeUUID: String = "SYNTHETIC-\(UUID().uuidString)") {
        self.model = model
        self.storeUUID = storeUUID
    }

    /// Entity numbers: `Z_ENT`, in name order from 1.
    var numbers: [String: Int64] {
        Dictionary(uniqueKeysWithValues: model.entities.map(\.name).sorted().enumerated().map { ($1, Int64($0 + 1)) })
    }

    func root(of entity: String) -> String { model.inheritanceChain(of: entity).first?.name ?? entity }

    /// The join table of `entity.relationship` (a many-to-many or a to-many without inverse):
    /// named after the side whose "Entity.relationship" sorts first.
    func joinTable(_ relationship: RelationshipDescription, of entity: String) -> (table: String, own: String, other: String, order: String) {
        let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
        let mine = "\(entity).\(relationship.name)"
        let theirs = inverse.map { "\(relationship.destination).\($0.name)" } ?? mine
        let a = numbers[entity] ?? 0, b = numbers[relationship.destination] ?? 0
        let name = relationship.name.uppercased(), inverseName = (inverse?.name ?? relationship.name).uppercased()
        let table = mine <= theirs ? "Z_\(a)\(name)" : "Z_\(b)\(inverseName)"
        return (table, "Z_\(a)\(inverseName)", "Z_\(b)\(name)", "Z_FOK_\(b)\(name)")
    }

    /// Writes the store at `path`.
    func write(to path: String, rows: [Row]) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                """)
            for entity in model.entities {
                let keys = rows.filter { $0.entity == entity.name }.map(\.key)
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                               arguments: [numbers[entity.name], entity.name, entity.parentName.flatMap { numbers[$0] } ?? 0, keys.max() ?? 0])
            }
            var joins: [String: String] = [:]
            for rootEntity in model.rootEntities {
                var columns: [String] = []
                for entity in [rootEntity] + model.descendants(of: rootEntity.name) {
                    for attribute in entity.attributes where !attribute.isTransient {
                        columns.append("Z\(attribute.name.uppercased()) \(Self.columnType(attribute.type))")
                    }
                    for relationship in entity.relationships where !relationship.isTransient {
                        let inverse = relationship.inverseName.flatMap { model.relationship($0, of: relationship.destination) }
                        if !relationship.isToMany {
                            columns.append("Z\(relationship.name.uppercased()) INTEGER")
                            if inverse?.isToMany == true && inverse?.isOrdered == true { columns.append("Z_FOK_\(relationship.name.uppercased()) INTEGER") }
                        } else if inverse.map(\.isToMany) ?? true {
                            let join = joinTable(relationship, of: entity.name)
                            let ordered = relationship.isOrdered ? ", \(join.order) INTEGER" : ""
                            if joins[join.table] == nil || relationship.isOrdered {
                                joins[join.table] = "CREATE TABLE \(join.table) (\(join.own) INTEGER, \(join.other) INTEGER\(ordered))"
                            }
                        }
                    }
                }
                try db.execute(sql: "CREATE TABLE Z\(rootEntity.name.uppercased()) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"
                               + columns.map { ", " + $0 }.joined() + ")")
            }
            for create in joins.values.sorted() { try db.execute(sql: create) }
            for row in rows {
                var names = ["Z_PK", "Z_ENT", "Z_OPT"]
                var arguments: [(any DatabaseValueConvertible)?] = [row.key, numbers[row.entity], 1]
                for (name, value) in row.values.sorted(by: { $0.key < $1.key }) { names.append("Z\(name.uppercased())"); arguments.append(value) }
                for (name, key) in row.toOne.sorted(by: { $0.key < $1.key }) { names.append("Z\(name.uppercased())"); arguments.append(key) }
                for (name, place) in row.order.sorted(by: { $0.key < $1.key }) { names.append("Z_FOK_\(name.uppercased())"); arguments.append(place) }
                let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                try db.execute(sql: "INSERT INTO Z\(root(of: row.entity).uppercased()) (\(names.joined(separator: ", "))) VALUES (\(marks))",
                               arguments: StatementArguments(arguments))
                for (name, members) in row.toMany {
                    guard let relationship = model.relationship(name, of: row.entity) else { continue }
                    let join = joinTable(relationship, of: row.entity)
                    for (place, member) in members.enumerated() {
                        let ordered = relationship.isOrdered
                        try db.execute(sql: "INSERT INTO \(join.table) (\(join.own), \(join.other)\(ordered ? ", \(join.order)" : "")) VALUES (?, ?\(ordered ? ", ?" : ""))",
                                       arguments: ordered ? [row.key, member, place + 1] : [row.key, member])
                    }
                }
            }
            let hashes = CoreDataVersionHash.entityHashes(of: model).mapValues { Data($0) }
            let metadata: [String: Any] = ["NSStoreModelVersionHashes": hashes, "NSStoreType": "SQLite", "NSStoreUUID": storeUUID,
                                           "NSPersistenceFrameworkVersion": 1044, "NSStoreModelVersionHashesVersion": 3]
            let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, ?, ?)", arguments: [storeUUID, plist])
        }
        try queue.close()
    }

    /// Core Data's declared column type for an attribute type.
    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .date: return "TIMESTAMP"
        case .decimal: return "DECIMAL"
        case .string, .uri: return "VARCHAR"
        default: return "BLOB"
        }
    }
}
