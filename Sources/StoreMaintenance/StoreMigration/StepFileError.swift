import ObjectModel

/// A step file that cannot be used: it names the file, the line and what is wrong.
public struct StepFileError: OperatorFacingError, Hashable {
    /// The step file.
    public var path: String
    /// The line (1-based), when known.
    public var line: Int?
    /// What is wrong.
    public var problem: String
    /// What to do.
    public var hint: String?
    /// `.badInput`, or `.missingInput` for a file that cannot be read.
    public var failureKind: FailureKind

    /// Creates the error.
    public init(path: String, line: Int? = nil, problem: String, hint: String? = "see docs/steps.md for the step file format",
                failureKind: FailureKind = .badInput) {
        self.path = path
        self.line = line
        self.problem = problem
        self.hint = hint
        self.failureKind = failureKind
    }

    /// `path:line: problem`.
    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)"
    }
}
