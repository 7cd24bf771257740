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

    /// Creates an entity step.
    public init(source: String, target: String, attributes: [AttributeStep], relationships: [String: String]) {
        self.source = source
        self.target = target
        self.attributes = attributes
        self.relationships = relationships
    }

    /// Transforms one record of `source` into a record of `target`; global ID and seed mark are kept.
    public func apply(to record: ImportRecord) -> StepResult {
        var values = AttributeValues()
        for attribute in attributes {
            switch attribute.origin {
            case .copy(let from, let conversion):
                let old = record.values[from] ?? .null
                if old.isNull {
                    values[attribute.name] = attribute.valueForEmpty ?? .null
                    continue
                }
                switch conversion.convert(old, to: attribute.type) {
                case .success(let value): values[attribute.name] = value
                case .failure(let failure):
                    return .rejected("\(source).\(from) → \(target).\(attribute.name) (\(conversion.rawValue)): \(failure)")
                }
            case .constant(let value):
                values[attribute.name] = value
            case .modelDefault:
                continue
            }
        }
        var next = ImportRecord(entity: target, globalID: record.globalID, values: values, seed: record.seed)
        for (name, old) in relationships {
            if let target = record.toOne[old] { next.toOne[name] = target }
            if let order = record.toOneOrder[old] { next.toOneOrder[name] = order }
            if let members = record.toMany[old] { next.toMany[name] = members }
        }
        return .record(next)
    }
}
