/// An error that an operator will read: it says what is wrong, with what, and what to do.
///
/// Every layer throws errors of this kind; only the CLI turns a ``FailureKind`` into an exit code.
///
/// ```swift
/// catch let error as OperatorFacingError {
///     print(error.description, error.hint ?? "")
/// }
/// ```
public protocol OperatorFacingError: Error, CustomStringConvertible {
    /// What kind of failure this is, which decides the exit code.
    var failureKind: FailureKind { get }
    /// What the operator can do about it, if anything useful can be said.
    var hint: String? { get }
}

/// The kinds of failure an operator needs to tell apart (each has one documented exit code).
public enum FailureKind: String, Sendable, Codable, CaseIterable {
    /// The command was called wrongly (exit 64).
    case usage
    /// An input file exists but its content is wrong (exit 65).
    case badInput
    /// An input file does not exist or cannot be read (exit 66).
    case missingInput
    /// An internal inconsistency: a bug in storekeep (exit 70).
    case internalFailure
    /// The output cannot be created (exit 73).
    case cannotCreateOutput
    /// Reading or writing failed part-way (exit 74).
    case ioFailure
    /// Another process holds the store (exit 75).
    case storeBusy
    /// A setting is wrong (exit 78).
    case badConfiguration
}
