import Foundation
import SyncStore

/// One step between two consecutive model versions: inferred like Core Data's lightweight
/// migration, or completed by a step file.
public struct ModelStep: Hashable, Sendable {
    /// Where the step's rules come from.
    public enum Origin: Hashable, Sendable {
        /// Inferred from the two versions alone.
        case inferred
        /// A step file (with inferred rules for everything it does not mention).
        case file(path: String, checksum: String)
        /// An Xcode mapping model (its `xcmapping.xml` and checksum), with the step file that
        /// overrides parts of it when there is one.
        case mappingModel(path: String, checksum: String, stepFile: String?, stepFileChecksum: String?)
    }

    /// The previous version's name.
    public var from: String
    /// The next version's name.
    public var to: String
    /// Where the rules come from.
    public var origin: Origin
    /// Per concrete entity of the previous version that has somewhere to go, by its name.
    public var entities: [String: EntityStep]
    /// What changes, in words ("Speech.speaker renamed to speakerName", "Speech.rating added").
    public var changes: [String]

    /// Creates a step.
    public init(from: String, to: String, origin: Origin, entities: [String: EntityStep], changes: [String]) {
        self.from = from
        self.to = to
        self.origin = origin
        self.entities = entities
        self.changes = changes
    }

    /// Transforms one record; `nil` when its entity's records are not carried over (a removed or dropped entity).
    public func apply(to record: ImportRecord, lookups: StepLookups = StepLookups(), index: Int = 0) -> StepResult? {
        entities[record.entity]?.apply(to: record, lookups: lookups, step: index)
    }

    /// The files the step applies, with their checksums: its step file, or its mapping model's
    /// `xcmapping.xml` and the step file beside it (none for an inferred step).
    public var files: [(path: String, checksum: String)] {
        switch origin {
        case .inferred: return []
        case .file(let path, let checksum): return [(path, checksum)]
        case .mappingModel(let path, let checksum, let stepFile, let stepFileChecksum):
            return [(path, checksum)] + (stepFile.flatMap { file in stepFileChecksum.map { (file, $0) } }.map { [$0] } ?? [])
        }
    }

    /// The properties of other records the step reads through key paths (see ``StepLookups``), for step number `index`.
    func lookupKeys(index: Int) -> Set<StepLookups.Key> {
        var keys = Set<StepLookups.Key>()
        for entity in entities.values {
            for attribute in entity.attributes {
                guard case .path(let path, _) = attribute.origin, let last = path.last else { continue }
                for hop in path.dropFirst().dropLast() { keys.insert(.init(step: index, property: hop, isTarget: true)) }
                keys.insert(.init(step: index, property: last, isTarget: false))
            }
            for path in entity.relationshipPaths.values {
                for hop in path.dropFirst() { keys.insert(.init(step: index, property: hop, isTarget: true)) }
            }
        }
        return keys
    }

    /// "SpeechTimer 1 → SpeechTimer 2 (inferred: …)".
    public var summary: String {
        let how: String
        func name(_ path: String) -> String {
            let url = URL(fileURLWithPath: path)
            return url.lastPathComponent == "xcmapping.xml" ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
        }
        switch origin {
        case .inferred: how = "inferred"
        case .file(let path, _): how = "step file \(name(path))"
        case .mappingModel(let path, _, let stepFile, _):
            how = "mapping model \(name(path))" + (stepFile.map { " with step file \(name($0))" } ?? "")
        }
        return "\(from) → \(to) (\(how)\(changes.isEmpty ? "" : ": " + changes.joined(separator: ", ")))"
    }
}
