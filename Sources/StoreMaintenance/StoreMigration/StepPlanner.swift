import Foundation
import ObjectModel

/// Finds the versions between a store's model version and a target version in a model bundle,
/// and the step between each consecutive pair (inferred, or completed by a step file beside the
/// bundle: `<folder of the bundle>/<from> to <to>.step.yaml`).
public enum StepPlanner {
    /// The chain from the store's version to `targetVersion` (default: the bundle's current version).
    ///
    /// The store's version is found in the bundle by version hash (several versions with the same
    /// hash are told apart by name). Steps are planned before anything is written.
    ///
    /// - Parameters:
    ///   - storeModel: the model kept in the store (``SyncStore/SyncStore/model``).
    ///   - storeHash: the store's recorded model hash.
    ///   - bundle: the model bundle holding the target version.
    ///   - bundlePath: where the bundle is (step files are looked up beside it).
    ///   - targetVersion: the target version's name, or `nil` for the current one.
    /// - Throws: ``MaintenanceError`` when the store's version is not in the bundle or comes after the target;
    ///   `ModelLookupError` for an unknown target; ``StepFileError``; ``StepInferenceError``.
    public static func chain(storeModel: ManagedModel, storeHash: String, bundle: ModelBundle, bundlePath: String,
                             targetVersion: String?) throws -> StepChain {
        let target = try targetVersion.map { try bundle.version(named: $0) } ?? bundle.current
        let matches = bundle.versions.indices.filter { bundle.versions[$0].versionHash == storeHash }
        guard let start = matches.first(where: { bundle.versions[$0].versionName == storeModel.versionName }) ?? matches.first else {
            let versions = bundle.versions.map { "'\($0.versionName)' (hash \($0.versionHash.prefix(12)))" }.joined(separator: ", ")
            let sameName = bundle.versions.contains { $0.versionName == storeModel.versionName }
            throw MaintenanceError(
                path: bundlePath,
                problem: "the store was made for model \(storeModel.name) version '\(storeModel.versionName)' (hash \(storeHash.prefix(12))), "
                    + "and no version of this bundle has that hash\(sameName ? " (its version of that name was changed since)" : ""); versions: \(versions)",
                hint: "give the model bundle the store's version came from, with the target version added to it", failureKind: .badInput)
        }
        guard let end = bundle.versions.firstIndex(where: { $0.versionName == target.versionName }) else {
            throw MaintenanceError(path: bundlePath, problem: "the bundle has no version named '\(target.versionName)'", failureKind: .badInput)
        }
        guard start <= end else {
            throw MaintenanceError(
                path: bundlePath,
                problem: "the store's version '\(bundle.versions[start].versionName)' comes after the target '\(target.versionName)'; migrations go forward only",
                hint: "give a later --model-version", failureKind: .badInput)
        }
        let folder = URL(fileURLWithPath: bundlePath).deletingLastPathComponent()
        var steps: [ModelStep] = []
        var previous = storeModel
        previous.versionName = bundle.versions[start].versionName
        for index in stride(from: start + 1, through: end, by: 1) {
            let next = bundle.versions[index]
            let file = folder.appendingPathComponent(StepFile.fileName(from: previous.versionName, to: next.versionName)).path
            let stepFile = FileManager.default.fileExists(atPath: file) ? try StepFileReader.read(path: file) : nil
            steps.append(try StepInference.step(from: previous, to: next, file: stepFile, stepFilePath: file))
            previous = next
        }
        return StepChain(source: storeModel, target: target, steps: steps)
    }
}
