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
    public func apply(to record: ImportRecord) -> StepResult? {
        entities[record.entity]?.apply(to: record)
    }

    /// "SpeechTimer 1 → SpeechTimer 2 (inferred: …)".
    public var summary: String {
        let how: String
        switch origin {
        case .inferred: how = "inferred"
        case .file(let path, _): how = "step file \(path.split(separator: "/").last.map(String.init) ?? path)"
        }
        return "\(from) → \(to) (\(how)\(changes.isEmpty ? "" : ": " + changes.joined(separator: ", ")))"
    }
}
