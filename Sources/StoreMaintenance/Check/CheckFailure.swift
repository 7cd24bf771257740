import ObjectModel

/// Why a store could not be checked (status ``CheckStatus/failed``).
public struct CheckFailure: Codable, Sendable, Hashable {
    /// The failure kind of the error met (`missingInput`, `badInput`, `ioFailure`, …).
    public var kind: FailureKind
    /// What is wrong, naming the file.
    public var message: String
    /// What to do.
    public var hint: String?

    /// Creates a failure.
    public init(kind: FailureKind, message: String, hint: String?) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// The failure an error stands for: an operator-facing error keeps its kind, message and hint.
    public init(error: any Error) {
        if let failure = error as? any OperatorFacingError {
            self.init(kind: failure.failureKind, message: failure.description, hint: failure.hint)
        } else {
            self.init(kind: .ioFailure, message: String(describing: error), hint: "check that the file can be read, then try again")
        }
    }
}
