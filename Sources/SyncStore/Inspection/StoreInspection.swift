import Foundation
import GRDB
import ObjectModel

/// One consistent, read-only view of a store file, possibly damaged, with typed queries for what
/// `check` looks for: the store's metadata and model, its layout against the model, records that
/// break a rule, dangling relationships, duplicates, gaps in the history, sync counters, values of
/// the wrong kind in storekeep's own tables.
///
/// An inspection lives only inside ``StoreInspector/inspect(_:)``. Every query reads what it needs
/// as it is (never trusting the file), names tables only through ``StoreLayoutDescription`` and
/// ``StoredProperty`` values, and throws ``StoreInspectionError`` when SQLite cannot read it; one
/// failed query does not spoil the next.
///
/// ```swift
/// try StoreInspector(path: path, access: .snapshot).inspect { inspection in
///     guard try inspection.isStore() else { return }
///     for gap in try inspection.sequenceGaps() { print(gap.peer, gap.first, gap.last) }
/// }
/// ```
public final class StoreInspection {
    /// The store file.
    public let path: String
    let db: Database
    /// The columns of each table, read once (`nil`: no such table).
    private var tableColumns: [String: Set<String>?] = [:]
    /// The metadata, read once.
    private var cachedMetadata: [String: String]?
    /// The blob folder, made once (a file URL of a relative path asks the system for the working
    /// folder, and whether the path is a folder, each time it is made).
    private(set) lazy var blobDirectory = BlobStore.directory(ofStoreAt: path)

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    /// Runs `body`, turning SQLite's errors into ``StoreInspectionError``.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw StoreInspectionError.converting(error)
        }
    }

    /// Whether the file has storekeep's tables (a SQLite file without them is not a store).
    public func isStore() throws -> Bool {
        try tableExists(StoreLayoutDescription.metadataTable)
    }

    /// Whether the file has a table named `table` (any table: a store's, or another program's).
    public func tableExists(_ table: String) throws -> Bool {
        try columns(ofTable: table) != nil
    }

    /// The columns of `table`, or `nil` when there is no such table.
    public func columns(ofTable table: String) throws -> Set<String>? {
        if let known = tableColumns[table] { return known }
        let names = try reading {
            // Bound, not interpolated: the name may come from the file.
            try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).compactMap { $0.stored("name", as: String.self) }
        }
        let result: Set<String>? = names.isEmpty ? nil : Set(names)
        tableColumns[table] = result
        return result
    }

    /// What the store says about itself, key → value; pairs that are not text are left out.
    public func metadata() throws -> [String: String] {
        if let cachedMetadata { return cachedMetadata }
        var metadata: [String: String] = [:]
        try reading {
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM sk_metadata") {
                if let key = row.stored("key", as: String.self), let value = row.stored("value", as: String.self) { metadata[key] = value }
            }
        }
        cachedMetadata = metadata
        return metadata
    }

    /// The store's format version, or 0 when the metadata does not say.
    public func formatVersion() throws -> Int {
        Int(try metadata()["formatVersion"] ?? "") ?? 0
    }

    /// Whether the store's format records bulk imports as insert runs (format 3 and later).
    public func recordsInsertRuns() throws -> Bool {
        try formatVersion() >= StoreSchema.insertRunFormat
    }

    /// The model the store keeps inside itself, as it reads.
    public func storedModel() throws -> StoredModelReading {
        guard try tableExists(StoreLayoutDescription.modelTable) else { return .tableMissing }
        let rows = try reading { try Row.fetchAll(db, sql: "SELECT hash, definition FROM sk_model") }
        guard rows.count == 1 else { return .rowCount(rows.count) }
        guard let definition = rows[0].stored("definition", as: String.self),
              let model = try? JSONDecoder().decode(ManagedModel.self, from: Data(definition.utf8)) else {
            return .unreadable
        }
        return .model(model, recordedHash: rows[0].stored("hash", as: String.self))
    }

    /// The layout a store of `model` has, for the seed configuration the store says it holds
    /// (none for a user's store).
    public func layout(of model: ManagedModel) throws -> StoreLayoutDescription {
        StoreLayoutDescription(model: model, seedConfiguration: try metadata()[SyncStore.seedConfigurationKey])
    }
}
