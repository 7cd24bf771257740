import ObjectModel
import SyncStore

/// The steps from a store's model version to a target version, applied record by record
/// (a record of the first version goes through step 1, then step 2, …).
///
/// ```swift
/// let chain = try StepPlanner.chain(storeModel: store.model, storeHash: store.metadata.modelHash, bundle: bundle,
///                                   bundlePath: path, targetVersion: nil)
/// chain.transform(record)   // .record(…) for the target version, nil when its entity is not carried over
/// ```
public struct StepChain: Hashable, Sendable {
    /// The store's model version (the first step's source).
    public var source: ManagedModel
    /// The target model version.
    public var target: ManagedModel
    /// The steps, in order (none when the store is already at the target version).
    public var steps: [ModelStep]

    /// Creates a chain.
    public init(source: ManagedModel, target: ManagedModel, steps: [ModelStep]) {
        self.source = source
        self.target = target
        self.steps = steps
    }

    /// A record of the source version as the target version holds it; `nil` when a step does not
    /// carry its entity over (removed or dropped). Key paths read other records through `lookups`.
    public func transform(_ record: ImportRecord, lookups: StepLookups = StepLookups()) -> StepResult? {
        transform(record, through: steps.count, lookups: lookups)
    }

    /// `record` after the first `count` steps.
    private func transform(_ record: ImportRecord, through count: Int, lookups: StepLookups) -> StepResult? {
        var current = record
        for (index, step) in steps.prefix(count).enumerated() {
            switch step.apply(to: current, lookups: lookups, index: index) {
            case .record(let next)?: current = next
            case .rejected(let reason)?: return .rejected("\(step.from) → \(step.to): \(reason)")
            case nil: return nil
            }
        }
        return .record(current)
    }

    /// Whether records of source entity `entity` go through every step unchanged (so that they can
    /// be copied as they are stored).
    public func passesUnchanged(_ entity: String) -> Bool {
        steps.allSatisfy { $0.entities[entity]?.passesUnchanged == true }
    }

    /// The target entity that records of source entity `entity` end in, or `nil` when they are not carried over.
    public func targetEntity(of entity: String) -> String? {
        var current = entity
        for step in steps {
            guard let next = step.entities[current]?.target else { return nil }
            current = next
        }
        return source.entity(named: entity) == nil ? nil : current
    }

    /// The step files and mapping models applied, in order.
    public var stepFiles: [(path: String, checksum: String)] {
        steps.flatMap(\.files)
    }

    /// The properties of other records that steps read through key paths.
    public var lookupKeys: Set<StepLookups.Key> {
        steps.enumerated().reduce(into: Set<StepLookups.Key>()) { $0.formUnion($1.element.lookupKeys(index: $1.offset)) }
    }

    /// Reads what the steps' key paths need: for each step that has any, one pass over every record
    /// of the source (`forEachSourceRecord` calls its argument once per record, of any entity),
    /// each taken through the steps before it. Empty, without reading, when no step has key paths.
    public func buildLookups(forEachSourceRecord: ((ImportRecord) throws -> Void) throws -> Void) throws -> StepLookups {
        let keys = lookupKeys
        var lookups = StepLookups()
        for index in Set(keys.map(\.step)).sorted() {
            let before = lookups
            try forEachSourceRecord { record in
                guard case .record(let atStep)? = transform(record, through: index, lookups: before) else { return }
                lookups.collect(atStep, step: index, keys: keys)
            }
        }
        return lookups
    }

    /// SHA-256 of the one file applied (step file or mapping model); of their checksums, one a line,
    /// when several are; "-" when every step is inferred.
    public var checksum: String {
        let files = stepFiles
        switch files.count {
        case 0: return "-"
        case 1: return files[0].checksum
        default: return SHA256.hexDigest(of: files.map(\.checksum).joined(separator: "\n"))
        }
    }
}
