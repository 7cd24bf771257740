import Foundation
import GRDB
import ObjectModel

/// Finds the user records whose seed references name no record of a seed store: for `check`
/// (``StoreInspector/forEachSeedStore(of:model:limit:_:)``) and for `seed-store build` (the records
/// a new seed store would leave dangling). One statement per reference attribute, joining the user
/// store (`main`) with the seed store attached under another schema name, through the seed store's
/// unique global-ID index.
enum SeedReferenceScan {
    /// The dangling references into configuration `configuration`, at most `limit` of them, and how
    /// many there are in all.
    ///
    /// - Parameters:
    ///   - db: a connection to the user store with the seed store attached as `schema`.
    ///   - model: the user store's model.
    static func dangling(in db: Database, model: ManagedModel, configuration: String, schema: String, limit: Int) throws -> (found: [DanglingSeedReference], total: Int) {
        var found: [DanglingSeedReference] = []
        var total = 0
        for reference in model.seedReferences where model.seedConfiguration(of: reference.target) == configuration {
            guard let located = try Row.fetchOne(db, sql: "SELECT table_name, column_name FROM main.sk_column WHERE entity = ? AND property = ?",
                                                 arguments: [reference.entity, reference.attribute]),
                  let table = located.stored("table_name", as: String.self), let column = located.stored("column_name", as: String.self),
                  let targetRoot = model.rootEntity(of: reference.target)?.name,
                  try Bool.fetchOne(db, sql: "SELECT 1 FROM \(InspectionSQL.identifier(schema)).sqlite_master WHERE type = 'table' AND name = ?",
                                    arguments: [StoreLayout.entityTablePrefix + targetRoot]) == true else { continue }
            let holders = InspectionSQL.list([reference.entity] + model.descendants(of: reference.entity).map(\.name))
            let targets = InspectionSQL.list([reference.target] + model.descendants(of: reference.target).map(\.name))
            let value = "u.\(InspectionSQL.identifier(column))"
            let condition = """
                FROM main.\(InspectionSQL.identifier(table)) u WHERE u._entity IN \(holders) AND \(value) IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM \(InspectionSQL.identifier(schema)).\(InspectionSQL.identifier(StoreLayout.entityTablePrefix + targetRoot)) t
                                WHERE t._gid = \(value) AND t._entity IN \(targets))
                """
            total += try Int.fetchOne(db, sql: "SELECT COUNT(*) \(condition)") ?? 0
            guard found.count < limit else { continue }
            for row in try Row.fetchAll(db, sql: "SELECT u._gid AS gid, u._entity AS entity, \(value) AS target \(condition) ORDER BY u._gid LIMIT \(limit - found.count)") {
                found.append(DanglingSeedReference(entity: row.stored("entity", as: String.self) ?? reference.entity, globalID: row.stored("gid", as: String.self) ?? "",
                                                   attribute: reference.attribute, target: InspectedValue(row.storedValue("target")).description,
                                                   targetEntity: reference.target))
            }
        }
        return (found, total)
    }

    /// Attaches the seed store at `path` to `db` as `schema`, read as an immutable file (a seed store
    /// is replaced by a rename, never written in place: nothing is created beside it).
    static func attach(_ path: String, as schema: String, to db: Database) throws {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        try db.execute(sql: "ATTACH DATABASE ? AS \(InspectionSQL.identifier(schema))", arguments: ["file:\(encoded)?immutable=1"])
    }
}
