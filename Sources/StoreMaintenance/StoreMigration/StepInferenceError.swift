import Foundation
import ObjectModel

/// A step between two model versions that cannot be inferred, and has no step file that completes it.
///
/// Thrown before anything is written; the message names both versions, every entity or attribute
/// that needs a rule and why, and the step file that would hold the rules.
public struct StepInferenceError: OperatorFacingError, Hashable {
    /// The previous version.
    public var from: String
    /// The next version.
    public var to: String
    /// What cannot be inferred, one item each ("Speech.rating: type changes from Integer 16 to String").
    public var problems: [String]
    /// The step file that would complete the step (it may exist and not cover everything).
    public var stepFile: String
    /// Whether that file exists.
    public var stepFileExists: Bool
    /// The mapping model the step follows, when it follows one (its `.xcmappingmodel` folder).
    public var mappingModel: String?

    /// Creates the error.
    public init(from: String, to: String, problems: [String], stepFile: String, stepFileExists: Bool, mappingModel: String? = nil) {
        self.from = from
        self.to = to
        self.problems = problems
        self.stepFile = stepFile
        self.stepFileExists = stepFileExists
        self.mappingModel = mappingModel
    }

    /// Always `.badInput` (exit 65).
    public var failureKind: FailureKind { .badInput }

    /// Where to write the rules; when the bundle's folder is not to be written (an app's project,
    /// a read-only copy), the same file goes in a folder of the operator's own, given with `--steps`.
    public var hint: String? {
        if stepFileExists { return "add rules for these to \(stepFile) (see docs/steps.md)" }
        let name = URL(fileURLWithPath: stepFile).lastPathComponent
        return "write the step file \(stepFile), or '\(name)' in a folder of your own given with --steps DIR (see docs/steps.md): "
            + "it can rename, convert with a declared rule, give a constant or a value generated per record "
            + "(generate: uuid-from-global-id, the same on every run), or drop data"
    }

    /// The versions and every problem.
    public var description: String {
        if let mappingModel {
            return "the step from model version '\(from)' to '\(to)' follows the mapping model \(mappingModel), which asks for what storekeep cannot do by itself"
                + (stepFileExists ? " even with its step file" : "") + ": " + problems.joined(separator: "; ")
        }
        return "the step from model version '\(from)' to '\(to)' cannot be inferred"
            + (stepFileExists ? " even with its step file" : "") + ": " + problems.joined(separator: "; ")
    }
}
