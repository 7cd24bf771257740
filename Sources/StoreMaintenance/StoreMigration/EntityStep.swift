import ObjectModel
import SyncStore

/// How the records of one concrete entity of a model version become records of the next version.
///
/// ```swift
/// let step = EntityStep(source: "Speech", target: "Speech", attributes: [
///     AttributeStep(name: "speakerName", type: .string, origin: .copy(from: "speaker", conversion: .same)),
/// ], relationships: ["type": "type"])
/// step.apply(to: record)   // .record(…) with speakerName
/// ```
public struct EntityStep: Hashable, Sendable {
    /// The entity in the previous version.
    public var source: String
    /// The entity in the next version.
    public var target: String
    /// Every persistent attribute of the target entity, in model order.
    public var attributes: [AttributeStep]
    /// Relationships kept by the record itself (to-one, and to-many kept in join tables): next-version
    /// name → previous-version name.
    public var relationships: [String: String]
    /// Relationships filled from the record at the end of a key path through to-one relationships
    /// of the previous version (a mapping model's `$source.country.continent`): next-version name → path.
    public var relationshipPaths: [String: [String]]
    /// Next-version to-many relationships (kept by the record) filled from a previous-version to-one:
    /// its target becomes the only member.
    public var promotedToMany: Set<String>
    /// Whether records go through unchanged (set by the planner, see ``isIdentity(from:to:)``).
    public var passesUnchanged = false

    /// Creates an entity step.
    public init(source: String, target: String, attributes: [AttributeStep], relationships: [String: String],
                relationshipPaths: [String: [String]] = [:], promotedToMany: Set<String> = []) {
        self.source = source
        self.target = target
        self.attributes = attributes
        self.relationships = relationships
        self.relationshipPaths = relationshipPaths
        self.promotedToMany = promotedToMany
    }

    /// Whether records go through unchanged: same entity name, every attribute copied from the one
    /// of the same name and type, every kept relationship from the one of the same name.
    public func isIdentity(from old: ManagedModel, to new: ManagedModel) -> Bool {
        guard source == target, relationshipPaths.isEmpty, promotedToMany.isEmpty else { return false }
        let oldAttributes = old.attributes(of: source).filter { !$0.isTransient && !$0.isDerived }
        guard oldAttributes.count == attributes.count else { return false }
        for step in attributes {
            guard case .copy(let from, .same) = step.origin, from == step.name, step.valueForEmpty == nil,
                  oldAttributes.contains(where: { $0.name == from && $0.type == step.type }) else { return false }
        }
        let kept = old.relationships(of: source).filter { !$0.isTransient && StepInference.isKeptByOwner($0, in: old) }
        return kept.count == relationships.count && relationships.allSatisfy { $0.key == $0.value }
            && kept.allSatisfy { relationships[$0.name] == $0.name }
            && new.relationships(of: target).filter { !$0.isTransient && StepInference.isKeptByOwner($0, in: new) }.count == relationships.count
    }

    /// Transforms one record of `source` into a record of `target`; global ID and seed mark are kept.
    /// Key paths read other records' values from `lookups` (those of step `step` of the chain).
    public func apply(to record: ImportRecord, lookups: StepLookups = StepLookups(), step: Int = 0) -> StepResult {
        var values = AttributeValues()
        for attribute in attributes {
            let from: String
            let old: AttributeValue
            let conversion: ValueConversion
            switch attribute.origin {
            case .copy(let name, let how):
                (from, old, conversion) = (name, record.values[name] ?? .null, how)
            case .path(let path, let how):
                (from, old, conversion) = (path.joined(separator: "."), lookups.value(at: path, from: record, step: step), how)
            case .constant(let value):
                values[attribute.name] = value
                continue
            case .generated(let generator):
                values[attribute.name] = generator.value(for: record.globalID, as: attribute.type)
                continue
            case .modelDefault:
                continue
            }
            if old.isNull {
                values[attribute.name] = attribute.valueForEmpty ?? .null
                continue
            }
            switch conversion.convert(old, to: attribute.type) {
            case .success(let value): values[attribute.name] = value
            case .failure(let failure):
                return .rejected("\(source).\(from) → \(target).\(attribute.name) (\(conversion.rawValue)): \(failure)")
            }
        }
        var next = ImportRecord(entity: target, globalID: record.globalID, values: values, seed: record.seed)
        for (name, old) in relationships {
            if promotedToMany.contains(name) {
                if let target = record.toOne[old] { next.toMany[name] = [target] }
                continue
            }
            if let target = record.toOne[old] { next.toOne[name] = target }
            if let order = record.toOneOrder[old] { next.toOneOrder[name] = order }
            if let members = record.toMany[old] { next.toMany[name] = members }
        }
        for (name, path) in relationshipPaths {
            guard let target = lookups.follow(path[...], from: record, step: step) else { continue }
            if promotedToMany.contains(name) { next.toMany[name] = [target] } else { next.toOne[name] = target }
        }
        return .record(next)
    }
}
