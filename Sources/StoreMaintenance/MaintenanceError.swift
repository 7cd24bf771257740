import ObjectModel

/// A maintenance job that cannot go on: it names the file, what is wrong, and what to do.
public struct MaintenanceError: OperatorFacingError, Hashable {
    /// The file concerned.
    public var path: String
    /// What is wrong.
    public var problem: String
    /// What to do.
    public var hint: String?
    /// The kind of failure (decides the exit code).
    public var failureKind: FailureKind

    /// Creates the error.
    public init(path: String, problem: String, hint: String? = nil, failureKind: FailureKind) {
        self.path = path
        self.problem = problem
        self.hint = hint
        self.failureKind = failureKind
    }

    /// `path: problem`.
    public var description: String { "\(path): \(problem)" }
}
