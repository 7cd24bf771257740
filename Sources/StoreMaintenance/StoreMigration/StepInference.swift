import Foundation
import LegacyFormats
import ObjectModel

/// Infers the step between two consecutive model versions the way Core Data's lightweight
/// migration would, completed by a step file's rules where given (see `docs/steps.md`).
///
/// Entities, attributes and relationships match by renaming identifier (`elementID`, else the
/// name), then by name. Inferred: added and removed entities, attributes and relationships;
/// renames; required → optional; optional → required when the attribute has a default (empty
/// values take it); numeric widening. Everything else needs a rule.
///
/// ```swift
/// let step = try StepInference.step(from: version1, to: version2, file: nil, stepFilePath: "Migrations/X/X 1 to X 2.step.yaml")
/// step.changes   // ["Speech.speaker renamed to speakerName", "Speech.rating added"]
/// ```
public enum StepInference {
    /// The step from `old` to `new`.
    ///
    /// - Parameters:
    ///   - file: the step file for this pair, when one exists.
    ///   - stepFilePath: where the step file is (or would be), for messages.
    ///   - records: what is known of the records of `old` (its store's own version only): a new
    ///     required attribute without a default does not stop the step of an entity without
    ///     records, and an attribute that becomes required without a default does not stop it
    ///     when no record holds no value for it, as neither stops Core Data's.
    /// - Throws: ``StepFileError`` for a rule that does not fit the versions (file and line named);
    ///   ``StepInferenceError`` listing everything that can be neither inferred nor found in the file.
    public static func step(from old: ManagedModel, to new: ManagedModel, file: StepFile?, stepFilePath: String,
                            records: SourceRecordFacts = .unknown) throws -> ModelStep {
        try checkVersions(of: file, old: old, new: new)
        let origin: ModelStep.Origin = file.map { .file(path: $0.path, checksum: $0.checksum) } ?? .inferred
        var work = Work(old: old, new: new, file: file)
        work.records = records
        return try step(work, origin: origin, stepFile: file, stepFilePath: stepFilePath)
    }

    /// The step from `old` to `new` that an Xcode mapping model describes, the step file's rules
    /// (when there is one) overriding the mapping's (see `MappingStepRules`). Nothing is inferred:
    /// what the mapping does not map gets no value, and source entities it does not map are not carried over.
    ///
    /// - Throws: ``StepFileError``; ``StepInferenceError`` listing what needs a step file rule (an
    ///   entity mapping with a custom migration policy, an expression storekeep does not read, …).
    public static func step(from old: ManagedModel, to new: ManagedModel, mapping: XcodeMappingModel, file: StepFile?,
                            stepFilePath: String) throws -> ModelStep {
        try checkVersions(of: file, old: old, new: new)
        var rules = MappingStepRules(mapping: mapping, old: old, new: new, stepFile: file, stepFilePath: stepFilePath)
        var work = Work(old: old, new: new, file: rules.rules())
        work.infersUnmentioned = false
        work.problems = rules.problems
        let origin = ModelStep.Origin.mappingModel(
            path: URL(fileURLWithPath: mapping.path).appendingPathComponent("xcmapping.xml").path, checksum: mapping.checksum,
            stepFile: file?.path, stepFileChecksum: file?.checksum)
        return try step(work, origin: origin, stepFile: file, stepFilePath: stepFilePath)
    }

    private static func checkVersions(of file: StepFile?, old: ManagedModel, new: ManagedModel) throws {
        if let file, file.from != old.versionName || file.to != new.versionName {
            throw StepFileError(path: file.path, line: file.line,
                                problem: "the file says it goes from '\(file.from)' to '\(file.to)', but it is used from '\(old.versionName)' to '\(new.versionName)'")
        }
    }

    private static func step(_ start: Work, origin: ModelStep.Origin, stepFile file: StepFile?, stepFilePath: String) throws -> ModelStep {
        var work = start
        let old = work.old
        let new = work.new
        try work.matchEntities()
        var entities: [String: EntityStep] = [:]
        for entity in old.entities where !entity.isAbstract {
            guard let target = work.targetOf[entity.name], let targetEntity = new.entity(named: target) else { continue }
            if targetEntity.isAbstract {
                work.problems.append("\(entity.name) matches \(target), which is abstract: its records have nowhere to go (drop them, or map them to a concrete entity)")
                continue
            }
            let attributes = try work.attributes(from: entity.name, to: target)
            work.relationshipPaths = [:]
            work.promotedToMany = []
            let relationships = try work.relationships(from: entity.name, to: target)
            var step = EntityStep(source: entity.name, target: target, attributes: attributes, relationships: relationships,
                                  relationshipPaths: work.relationshipPaths, promotedToMany: work.promotedToMany)
            step.passesUnchanged = step.isIdentity(from: old, to: new)
            entities[entity.name] = step
        }
        for derived in work.derivedFromInverse {
            let holders = entities.values.filter { new.entity($0.target, isKindOf: derived.newHolder) }
            if let lost = holders.first(where: { $0.relationships[derived.newInverse] != derived.oldInverse }) {
                work.problems.append("\(derived.place) becomes many-to-many, but \(lost.target).\(derived.newInverse) does not take "
                                     + "\(lost.source).\(derived.oldInverse), which held its members (drop the old members)")
            }
        }
        guard work.problems.isEmpty else {
            var mappingModel: String?
            if case .mappingModel(let path, _, _, _) = origin { mappingModel = URL(fileURLWithPath: path).deletingLastPathComponent().path }
            throw StepInferenceError(from: old.versionName, to: new.versionName, problems: work.problems,
                                     stepFile: stepFilePath, stepFileExists: file != nil, mappingModel: mappingModel)
        }
        return ModelStep(from: old.versionName, to: new.versionName, origin: origin, entities: entities, changes: work.changes)
    }

    /// The identifier two versions' elements match by: the renaming identifier, else the name.
    static func identifier(name: String, elementID: String?) -> String {
        if let elementID, !elementID.isEmpty { return elementID }
        return name
    }

    /// Whether a relationship's members are kept by its own records (a to-one column, or a join
    /// table) rather than derived from a to-one inverse.
    static func isKeptByOwner(_ relationship: RelationshipDescription, in model: ManagedModel) -> Bool {
        guard relationship.isToMany else { return true }
        guard let inverseName = relationship.inverseName,
              let inverse = model.relationship(inverseName, of: relationship.inverseEntity ?? relationship.destination),
              !inverse.isTransient else { return true }
        return inverse.isToMany
    }
}
