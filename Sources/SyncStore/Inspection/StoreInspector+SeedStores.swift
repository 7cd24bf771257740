import Foundation
import GRDB
import ObjectModel

extension StoreInspector {
    /// Reads the seed store of each of `configurations` from the user's store's side, on a
    /// connection of its own with the seed stores attached as immutable files: each must be beside
    /// the store, be that configuration's for `model`, and hold every record a seed reference of a
    /// user record names. SQLite attaches at most ten files to a connection: the first eight
    /// configurations are read.
    ///
    /// - Parameters:
    ///   - model: the user's store's model.
    ///   - limit: the most dangling references listed per configuration (all are counted).
    ///   - body: called once per configuration, in order.
    /// - Throws: ``StoreInspectionError``, and what `body` throws.
    public func forEachSeedStore(of configurations: [String], model: ManagedModel, limit: Int,
                                 _ body: (SeedStoreReading) throws -> Void) throws {
        do {
            let queue = try DatabaseQueue(path: location, configuration: self.configuration)
            defer { try? queue.close() }
            try queue.inDatabase { db in
                for (index, configuration) in configurations.prefix(8).enumerated() {
                    try body(try read(configuration, as: "seed_\(index)", model: model, limit: limit, db: db))
                }
            }
        } catch {
            throw StoreInspectionError.converting(error)
        }
    }

    /// The user records of this store (of `model`) whose seed references into `configuration` the
    /// seed store file at `candidate` would leave dangling if it were put in place: at most `limit`
    /// listed, all counted. Read on a connection of its own, with the candidate attached as an
    /// immutable file.
    ///
    /// - Throws: ``StoreInspectionError``.
    public func danglingSeedReferences(ifSeedStoreAt candidate: String, configuration: String, model: ManagedModel,
                                       limit: Int) throws -> (references: [DanglingSeedReference], total: Int) {
        do {
            let queue = try DatabaseQueue(path: location, configuration: self.configuration)
            defer { try? queue.close() }
            return try queue.inDatabase { db in
                try SeedReferenceScan.attach(candidate, as: "seed_new", to: db)
                let (found, total) = try SeedReferenceScan.dangling(in: db, model: model, configuration: configuration, schema: "seed_new", limit: limit)
                try db.execute(sql: "DETACH DATABASE seed_new")
                return (found, total)
            }
        } catch {
            throw StoreInspectionError.converting(error)
        }
    }

    private func read(_ configuration: String, as schema: String, model: ManagedModel, limit: Int, db: Database) throws -> SeedStoreReading {
        let file = SyncStore.seedStorePath(of: path, configuration: configuration)
        guard FileManager.default.fileExists(atPath: file) else { return .missing(configuration: configuration, file: file) }
        do {
            try SeedReferenceScan.attach(file, as: schema, to: db)
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(InspectionSQL.identifier(schema)).sqlite_master")
        } catch {
            try? db.execute(sql: "DETACH DATABASE \(InspectionSQL.identifier(schema))")
            return .unreadable(configuration: configuration, file: file, message: (error as? DatabaseError)?.message ?? "\(error)")
        }
        let quoted = InspectionSQL.identifier(schema)
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM \(quoted).sqlite_master WHERE type = 'table' AND name = 'sk_model'") == true,
              let definition = try Row.fetchOne(db, sql: "SELECT definition FROM \(quoted).sk_model LIMIT 1")?.stored("definition", as: String.self),
              let stored = try? JSONDecoder().decode(ManagedModel.self, from: Data(definition.utf8)) else {
            return .mismatched(configuration: configuration, file: file, problem: "is not a storekeep store (it has no readable model)")
        }
        let role = try Row.fetchOne(db, sql: "SELECT value FROM \(quoted).sk_metadata WHERE key = ?", arguments: [SyncStore.seedConfigurationKey])?
            .stored("value", as: String.self)
        if let problem = SyncStore.seedStoreMismatch(role, model: stored, for: configuration, of: model) {
            return .mismatched(configuration: configuration, file: file, problem: problem)
        }
        let (found, total) = try SeedReferenceScan.dangling(in: db, model: model, configuration: configuration, schema: schema, limit: limit)
        guard total > 0 else { return .checked(configuration: configuration, file: file, dangling: [], total: 0, seedVersion: nil) }
        let version = try Row.fetchOne(db, sql: "SELECT value FROM \(quoted).sk_metadata WHERE key = 'seedVersion'")?.stored("value", as: String.self)
        return .checked(configuration: configuration, file: file, dangling: found, total: total, seedVersion: version)
    }
}
