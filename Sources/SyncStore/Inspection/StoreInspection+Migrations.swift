import GRDB

extension StoreInspection {
    /// The migration runs, oldest first; `nil` when the store has no migration history.
    public func migrationRuns() throws -> [InspectedMigrationRun]? {
        guard try tableExists(StoreLayoutDescription.migrationTable) else { return nil }
        return try reading {
            try Row.fetchAll(db, sql: "SELECT id, version, description, source, started, finished, success FROM sk_migration ORDER BY id").map { row in
                InspectedMigrationRun(id: row.stored("id", as: Int64.self) ?? 0, description: row.stored("description", as: String.self) ?? "",
                                      source: row.stored("source", as: String.self), started: row.stored("started", as: Double.self),
                                      finished: row.stored("finished", as: Double.self), success: row.stored("success", as: Int.self).map { $0 != 0 })
            }
        }
    }

    /// The files the migration runs applied, by run then path; `nil` when the store does not record them.
    public func migrationFiles() throws -> [InspectedMigrationFile]? {
        guard try tableExists(StoreLayoutDescription.migrationFileTable) else { return nil }
        return try reading {
            try Row.fetchAll(db, sql: "SELECT migration, path, checksum FROM sk_migration_file ORDER BY migration, path").map { row in
                InspectedMigrationFile(migration: row.stored("migration", as: Int64.self) ?? 0, path: row.stored("path", as: String.self) ?? "",
                                       checksum: row.stored("checksum", as: String.self) ?? "")
            }
        }
    }
}
