import Foundation
import GRDB
import ObjectModel
import SyncStore

/// The state one store's check shares between its detectors: the open read transaction, what the
/// store says about itself, the model and column map once known, and the findings so far.
final class CheckContext {
    /// The database, inside one read transaction.
    let db: Database
    /// The store file.
    let path: String
    /// The options of the run.
    let options: CheckOptions
    /// When the check started (files younger than this are not called orphans).
    let started: Date
    /// The findings so far.
    var collector: FindingCollector
    /// `sk_metadata`, key → value.
    var metadata: [String: String] = [:]
    /// The model records are checked against, once read (`nil` when unreadable).
    var model: ManagedModel?
    /// Where each property lives, by entity then property: only rows that agree with the model and the tables.
    var columns: [String: [String: StoredColumn]] = [:]
    /// The columns of each table, read once.
    private var tableColumns: [String: Set<String>?] = [:]

    /// Creates the context of one check.
    init(db: Database, path: String, options: CheckOptions, started: Date) {
        self.db = db
        self.path = path
        self.options = options
        self.started = started
        self.collector = FindingCollector(limit: options.findingLimit)
    }

    /// The columns of `table`, or `nil` when there is no such table.
    func columns(ofTable table: String) throws -> Set<String>? {
        if let known = tableColumns[table] { return known }
        let names = try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).compactMap { $0.stored("name", as: String.self) }
        let result: Set<String>? = names.isEmpty ? nil : Set(names)
        tableColumns[table] = result
        return result
    }

    /// Whether the table exists.
    func tableExists(_ table: String) throws -> Bool { try columns(ofTable: table) != nil }

    /// Whether the store's format records bulk imports as insert runs (format 3 and later:
    /// `_insert_run` in every entity table, and `sk_insert_run`).
    var hasInsertRuns: Bool { (Int(metadata["formatVersion"] ?? "") ?? 0) >= SyncStore.insertRunFormat }

    /// For a seed store, the seed configuration whose records it holds (`nil`: a user's store).
    var seedConfiguration: String? { metadata[SyncStore.seedConfigurationKey] }

    /// Whether this store keeps the records of `entity`: a user's store those of no seed
    /// configuration, a seed store those of its configuration.
    func holds(_ entity: String) -> Bool {
        model?.seedConfiguration(of: entity) == seedConfiguration
    }

    /// The table of `entity`'s family (`e_<root entity>`), `nil` when this store does not hold it.
    func table(of entity: String) -> String? {
        guard holds(entity) else { return nil }
        return model?.rootEntity(of: entity).map { "e_\($0.name)" }
    }

    /// `entity` and every entity below it.
    func family(of entity: String) -> [String] {
        guard let model else { return [entity] }
        return [entity] + model.descendants(of: entity).map(\.name)
    }

    /// The stored column of `property` of `entity`, when it is mapped and exists.
    func column(_ property: String, of entity: String) -> StoredColumn? {
        columns[entity]?[property]
    }

    /// Adds a finding (see ``FindingCollector/add(_:entity:property:_:)``).
    func add(_ code: CheckCode, entity: String? = nil, property: String? = nil, _ make: () -> CheckFinding) {
        collector.add(code, entity: entity, property: property, make)
    }
}
