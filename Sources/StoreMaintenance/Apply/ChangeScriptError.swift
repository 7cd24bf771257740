import ObjectModel

/// A change file that cannot be applied: which file, which line, what is wrong. Nothing is saved.
public struct ChangeScriptError: OperatorFacingError, Hashable {
    /// The change file.
    public var path: String
    /// The line (1-based), when the problem is on one.
    public var line: Int?
    /// What is wrong.
    public var message: String
    /// What to do.
    public var hint: String?
    /// Whether the file does not exist (exit 66) rather than holds what cannot be applied (65).
    public var isMissing = false

    /// Creates the error.
    public init(path: String, line: Int?, message: String, hint: String? = "fix the line and run the same command again; nothing was saved") {
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
    }

    /// `<path>:<line>: <message>`.
    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }

    /// A missing change file is missing input (exit 66); a bad one bad input (exit 65).
    public var failureKind: FailureKind { isMissing ? .missingInput : .badInput }
}
