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
    /// carry its entity over (removed or dropped).
    public func transform(_ record: ImportRecord) -> StepResult? {
        var current = record
        for step in steps {
            switch step.apply(to: current) {
            case .record(let next)?: current = next
            case .rejected(let reason)?: return .rejected("\(step.from) → \(step.to): \(reason)")
            case nil: return nil
            }
        }
        return .record(current)
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

    /// The step files applied, in order.
    public var stepFiles: [(path: String, checksum: String)] {
        steps.compactMap { step in
            if case .file(let path, let checksum) = step.origin { return (path, checksum) }
            return nil
        }
    }

    /// SHA-256 of the one step file applied; of their checksums, one a line, when several are;
    /// "-" when every step is inferred.
    public var checksum: String {
        let files = stepFiles
        switch files.count {
        case 0: return "-"
        case 1: return files[0].checksum
        default: return SHA256.hexDigest(of: files.map(\.checksum).joined(separator: "\n"))
        }
    }
}
