import ObjectModel

/// A command line that names its inputs correctly but asks for something the inputs do not allow
/// (a property list without `--mapping`, a store without `--model`): exit 64, reported like every
/// other failure (stderr, and the JSON error document under `--json`).
///
/// ```swift
/// throw CommandUsageError("data.plist is a binary property list; a property list needs --mapping FILE", hint: "see docs/mapping.md")
/// ```
struct CommandUsageError: OperatorFacingError, Equatable {
    /// What is wrong, naming the file.
    var message: String
    /// What to do.
    var hint: String?

    /// Creates the error.
    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// A usage error (exit 64).
    var failureKind: FailureKind { .usage }
    /// The message.
    var description: String { message }
}
