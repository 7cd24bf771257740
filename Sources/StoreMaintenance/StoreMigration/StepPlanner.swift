import Foundation
import ObjectModel

/// Plans the steps from a store's model version to a target version of a model bundle, the way
/// Core Data migrates: **one step**, straight from the store's version to the target, through a
/// step file or mapping model for exactly those two versions when one exists, else inferred like
/// Core Data's lightweight migration. Only when that step cannot be inferred, a **chain** through the
/// step files and mapping models beside the bundle (see `ExplicitSteps`) is looked for: the
/// shortest one, with inferred steps between them. Versions are not ordered: a target may be a
/// version the bundle lists before the store's (a bundle whose current version is its first).
public enum StepPlanner {
    /// The chain from a storekeep store's version to `targetVersion` (default: the bundle's current version).
    ///
    /// The store's version is found in the bundle by storekeep's version hash (several versions with
    /// the same hash are told apart by name).
    ///
    /// - Parameters:
    ///   - storeModel: the model kept in the store (``SyncStore/SyncStore/model``).
    ///   - storeHash: the store's recorded model hash.
    ///   - bundle: the model bundle holding the target version.
    ///   - bundlePath: where the bundle is (step files and mapping models are looked up beside it).
    ///   - targetVersion: the target version's name, or `nil` for the current one.
    ///   - stepsFolder: a folder of step files to use instead of the bundle's own folder (`--steps`).
    ///   - records: what is known of the store's records (see
    ///     ``StepInference/step(from:to:file:stepFilePath:records:)``).
    /// - Throws: ``MaintenanceError`` when the store's version is not in the bundle; `ModelLookupError`
    ///   for an unknown target; ``StepFileError``; ``StepInferenceError``; `XcodeMappingError`.
    public static func chain(storeModel: ManagedModel, storeHash: String, bundle: ModelBundle, bundlePath: String,
                             targetVersion: String?, stepsFolder: String? = nil, records: SourceRecordFacts = .unknown) throws -> StepChain {
        let matches = bundle.versions.filter { $0.versionHash == storeHash }
        guard let start = matches.first(where: { $0.versionName == storeModel.versionName }) ?? matches.first else {
            let versions = bundle.versions.map { "'\($0.versionName)' (hash \($0.versionHash.prefix(12)))" }.joined(separator: ", ")
            let sameName = bundle.versions.contains { $0.versionName == storeModel.versionName }
            throw MaintenanceError(
                path: bundlePath,
                problem: "the store was made for model \(storeModel.name) version '\(storeModel.versionName)' (hash \(storeHash.prefix(12))), "
                    + "and no version of this bundle has that hash\(sameName ? " (its version of that name was changed since)" : ""); versions: \(versions)",
                hint: "give the model bundle the store's version came from, with the target version added to it", failureKind: .badInput)
        }
        var source = storeModel
        source.versionName = start.versionName
        return try chain(from: source, bundle: bundle, bundlePath: bundlePath, targetVersion: targetVersion,
                         stepsFolder: stepsFolder, records: records)
    }

    /// The chain from `source` (a version of `bundle`, or a store's own copy of one, named as the
    /// bundle names it) to `targetVersion` (default: the bundle's current version).
    ///
    /// `stepsFolder` and `records` are as for ``chain(storeModel:storeHash:bundle:bundlePath:targetVersion:stepsFolder:records:)``.
    ///
    /// - Throws: `ModelLookupError` for an unknown target; ``StepFileError``; ``StepInferenceError``
    ///   (for the one step, when neither it nor any chain can be planned); `XcodeMappingError`;
    ///   ``MaintenanceError`` for two mapping models between the same versions, or a `stepsFolder`
    ///   that is not a folder.
    public static func chain(from source: ManagedModel, bundle: ModelBundle, bundlePath: String, targetVersion: String?,
                             stepsFolder: String? = nil, records: SourceRecordFacts = .unknown) throws -> StepChain {
        let target = try targetVersion.map { try bundle.version(named: $0) } ?? bundle.current
        // A folder of step files that is not there is an error even when no step needs one.
        if let stepsFolder { _ = try ExplicitSteps.checkedFolder(stepsFolder) }
        guard source.versionName != target.versionName else { return StepChain(source: source, target: target, steps: []) }
        let explicit = try ExplicitSteps.find(bundle: bundle, bundlePath: bundlePath, stepsFolder: stepsFolder)
        var planner = Planner(bundle: bundle, explicit: explicit, source: source, records: records)
        if let edge = explicit.edge(from: source.versionName, to: target.versionName) {
            return StepChain(source: source, target: target, steps: [try planner.explicitStep(edge, from: source, to: target)])
        }
        do {
            let step = planner.notingLostRenames(try planner.inferredStep(from: source, to: target), from: source, to: target)
            return StepChain(source: source, target: target, steps: [step])
        } catch let direct as StepInferenceError {
            guard let steps = try planner.chainThroughExplicitSteps(to: target) else { throw direct }
            return StepChain(source: source, target: target, steps: steps)
        }
    }

    /// One planning: steps tried so far are kept, so that no pair is planned twice.
    private struct Planner {
        let bundle: ModelBundle
        let explicit: ExplicitSteps
        let source: ManagedModel
        /// What is known of the source version's records: only steps from the source know it.
        let records: SourceRecordFacts
        private var inferred: [String: ModelStep?] = [:]

        init(bundle: ModelBundle, explicit: ExplicitSteps, source: ManagedModel, records: SourceRecordFacts) {
            self.bundle = bundle
            self.explicit = explicit
            self.source = source
            self.records = records
        }

        /// What is known of the records of `version`: only the source's are.
        private func records(of version: ManagedModel) -> SourceRecordFacts {
            version.versionName == source.versionName ? records : .unknown
        }

        /// The model a step from `name` starts from: the source itself, or the bundle's version.
        private func model(_ name: String) -> ManagedModel? {
            name == source.versionName ? source : bundle.versions.first { $0.versionName == name }
        }

        func explicitStep(_ edge: ExplicitSteps.Edge, from old: ManagedModel, to new: ManagedModel) throws -> ModelStep {
            let path = edge.stepFile ?? explicit.stepFilePath(from: old.versionName, to: new.versionName)
            let file = try edge.stepFile.map { try StepFileReader.read(path: $0) }
            if let mapping = edge.mapping {
                return try StepInference.step(from: old, to: new, mapping: mapping, file: file, stepFilePath: path)
            }
            return try StepInference.step(from: old, to: new, file: file, stepFilePath: path, records: records(of: old))
        }

        func inferredStep(from old: ManagedModel, to new: ManagedModel) throws -> ModelStep {
            try StepInference.step(from: old, to: new, file: nil, stepFilePath: explicit.stepFilePath(from: old.versionName, to: new.versionName),
                                   records: records(of: old))
        }

        /// `step` with a change noted for every attribute it drops that another version of the bundle
        /// renames (its renaming identifier is the dropped name): Core Data drops those values too, but
        /// a step file can carry them.
        func notingLostRenames(_ step: ModelStep, from old: ManagedModel, to new: ManagedModel) -> ModelStep {
            var noted = step
            for (source, entityStep) in step.entities.sorted(by: { $0.key < $1.key }) {
                let carried = Set(entityStep.attributes.compactMap { attribute -> String? in
                    if case .copy(let from, _) = attribute.origin { return from }
                    return nil
                })
                for attribute in old.attributes(of: source) where !attribute.isTransient && !carried.contains(attribute.name) {
                    for version in bundle.versions where version.versionName != old.versionName && version.versionName != new.versionName {
                        guard let renamed = version.attributes(of: entityStep.target).first(where: { $0.elementID == attribute.name && $0.name != attribute.name })
                            ?? version.attributes(of: source).first(where: { $0.elementID == attribute.name && $0.name != attribute.name }) else { continue }
                        noted.changes.append("\(source).\(attribute.name) is dropped though version '\(version.versionName)' renames it \(renamed.name) "
                            + "(to carry its values, write the step file with the rule \(renamed.name): \(attribute.name))")
                        break
                    }
                }
            }
            return noted
        }

        /// The inferred step between two versions, or `nil` when it cannot be inferred.
        private mutating func tryInferred(from: String, to: String) -> ModelStep? {
            let key = from + "\u{0}" + to
            if let known = inferred[key] { return known }
            let step = model(from).flatMap { old in model(to).flatMap { new in try? inferredStep(from: old, to: new) } }
            inferred[key] = step
            return step
        }

        /// The shortest chain from the source to `target` that takes at least one step file or
        /// mapping model, inferred steps between; `nil` when there is none. A step file or mapping
        /// model that is malformed stops the planning (``StepFileError``); one that cannot complete its
        /// step is left out.
        mutating func chainThroughExplicitSteps(to target: ManagedModel) throws -> [ModelStep]? {
            let order = bundle.versions.map(\.versionName)
            struct Path { var at: String; var steps: [ModelStep]; var explicit: Bool }
            var frontier = [Path(at: source.versionName, steps: [], explicit: false)]
            var seen: Set<String> = [source.versionName + "|false"]
            for _ in 0..<order.count {
                var next: [Path] = []
                for path in frontier {
                    guard let old = model(path.at) else { continue }
                    var moves: [(String, ModelStep, Bool)] = []
                    for edge in explicit.edges(from: path.at, order: order) {
                        guard let new = model(edge.to) else { continue }
                        do {
                            moves.append((edge.to, try explicitStep(edge, from: old, to: new), true))
                        } catch is StepInferenceError {
                            continue
                        }
                    }
                    for name in order where name != path.at {
                        if let step = tryInferred(from: path.at, to: name) { moves.append((name, step, false)) }
                    }
                    for (name, step, isExplicit) in moves {
                        let reached = Path(at: name, steps: path.steps + [step], explicit: path.explicit || isExplicit)
                        if name == target.versionName && reached.explicit { return reached.steps }
                        if seen.insert(name + "|\(reached.explicit)").inserted { next.append(reached) }
                    }
                }
                if next.isEmpty { return nil }
                frontier = next
            }
            return nil
        }
    }
}
