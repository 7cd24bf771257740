import ObjectModel
import SyncStore

/// Values of other records that steps read through key paths (a mapping model's
/// `$source.country.continent`): for one step, a property's value or target by record, for every
/// record of that step's previous version that has the property.
///
/// Built before the records are streamed (``StepChain/buildLookups(forEachSourceRecord:)``), one pass
/// over the source per step that needs any; empty for chains without key paths.
public struct StepLookups: Sendable {
    /// One property of one step's previous version.
    public struct Key: Hashable, Sendable {
        /// The step's index in its chain.
        public var step: Int
        /// The property (an attribute, or a to-one relationship).
        public var property: String
        /// Whether the wanted thing is the to-one relationship's target rather than an attribute value.
        public var isTarget: Bool

        /// Creates a key.
        public init(step: Int, property: String, isTarget: Bool) {
            self.step = step
            self.property = property
            self.isTarget = isTarget
        }
    }

    /// Attribute values by key, then record.
    var values: [Key: [GlobalID: AttributeValue]] = [:]
    /// To-one targets by key, then record.
    var targets: [Key: [GlobalID: GlobalID]] = [:]

    /// No lookups.
    public init() {}

    /// Records what `record` (of step `step`'s previous version) holds for the keys of that step.
    mutating func collect(_ record: ImportRecord, step: Int, keys: Set<Key>) {
        for key in keys where key.step == step {
            if key.isTarget {
                if let target = record.toOne[key.property] { targets[key, default: [:]][record.globalID] = target }
            } else if let value = record.values[key.property], !value.isNull {
                values[key, default: [:]][record.globalID] = value
            }
        }
    }

    /// The record reached from `start` through the to-one relationships `hops` (the first one read
    /// from `start` itself), at step `step`; `nil` when a relationship on the way is empty.
    func follow(_ hops: ArraySlice<String>, from start: ImportRecord, step: Int) -> GlobalID? {
        guard let first = hops.first, var current = start.toOne[first] else { return nil }
        for hop in hops.dropFirst() {
            guard let next = targets[Key(step: step, property: hop, isTarget: true)]?[current] else { return nil }
            current = next
        }
        return current
    }

    /// The value of the attribute at the end of `path` from `start`, at step `step`.
    func value(at path: [String], from start: ImportRecord, step: Int) -> AttributeValue {
        guard let last = path.last else { return .null }
        guard let holder = follow(path.dropLast(), from: start, step: step) else { return .null }
        return values[Key(step: step, property: last, isTarget: false)]?[holder] ?? .null
    }
}
