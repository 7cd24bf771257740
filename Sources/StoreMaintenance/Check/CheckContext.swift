import Foundation
import ObjectModel
import SyncStore

/// The state one store's check shares between its detectors: the store's inspection (one read
/// transaction), what the store says about itself, the model and layout once known, and the
/// findings so far.
final class CheckContext {
    /// The store, read in one read transaction.
    let inspection: StoreInspection
    /// The store file.
    let path: String
    /// The options of the run.
    let options: CheckOptions
    /// When the check started (files younger than this are not called orphans).
    let started: Date
    /// The findings so far.
    var collector: FindingCollector
    /// What the store says about itself, key → value.
    var metadata: [String: String] = [:]
    /// The model records are checked against, once read (`nil` when unreadable).
    var model: ManagedModel?
    /// The store's layout once reviewed against the model: its tables, and only the properties
    /// whose mapping agrees with the model and the tables (``SchemaDetector``).
    var layout: StoreLayoutDescription?

    /// Creates the context of one check.
    init(inspection: StoreInspection, path: String, options: CheckOptions, started: Date) {
        self.inspection = inspection
        self.path = path
        self.options = options
        self.started = started
        self.collector = FindingCollector(limit: options.findingLimit)
    }

    /// For a seed store, the seed configuration whose records it holds (`nil`: a user's store).
    var seedConfiguration: String? { metadata[SyncStore.seedConfigurationKey] }

    /// The table of `entity`'s family, `nil` when this store does not hold it.
    func table(of entity: String) -> String? { layout?.table(of: entity) }

    /// `entity` and every entity below it.
    func family(of entity: String) -> [String] {
        guard let model else { return [entity] }
        return [entity] + model.descendants(of: entity).map(\.name)
    }

    /// Where `property` of `entity` is stored, when it is mapped and exists.
    func column(_ property: String, of entity: String) -> StoredProperty? {
        layout?.storage(of: property, of: entity)
    }

    /// Adds a finding (see ``FindingCollector/add(_:entity:property:_:)``).
    func add(_ code: CheckCode, entity: String? = nil, property: String? = nil, _ make: () -> CheckFinding) {
        collector.add(code, entity: entity, property: property, make)
    }
}
