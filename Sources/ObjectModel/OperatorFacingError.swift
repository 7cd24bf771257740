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

/// The kinds of failure an operator needs to tell apart.
///
/// A struct of named constants rather than an enum, so that a later version can add a kind
/// without breaking code that switches over the kinds it knows (the way GRDB's `ResultCode` is
/// open). What a kind means to a program (an exit status, an HTTP status) is the caller's choice:
/// the CLI maps each to a documented exit code (docs/exit-codes.md).
///
/// ```swift
/// switch error.failureKind {
/// case .storeBusy: retryLater()
/// default: report(error)
/// }
/// ```
public struct FailureKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind's stable name (`usage`, `badInput`, …), as JSON error documents carry it.
    public let rawValue: String

    /// A kind by its name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The kind's name.
    public var description: String { rawValue }

    /// Decodes the kind from its name.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the kind as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The command or call was made wrongly (an option missing, two that exclude each other).
    public static let usage = FailureKind(rawValue: "usage")
    /// An input file exists but its content is wrong.
    public static let badInput = FailureKind(rawValue: "badInput")
    /// An input file does not exist or cannot be read.
    public static let missingInput = FailureKind(rawValue: "missingInput")
    /// An internal inconsistency: a bug in storekeep.
    public static let internalFailure = FailureKind(rawValue: "internalFailure")
    /// The output cannot be created (exists, no space, no permission).
    public static let cannotCreateOutput = FailureKind(rawValue: "cannotCreateOutput")
    /// Reading or writing failed part-way.
    public static let ioFailure = FailureKind(rawValue: "ioFailure")
    /// Another process holds the store.
    public static let storeBusy = FailureKind(rawValue: "storeBusy")
    /// A setting is wrong.
    public static let badConfiguration = FailureKind(rawValue: "badConfiguration")

    /// The kinds this version knows.
    public static let known: [FailureKind] = [.usage, .badInput, .missingInput, .internalFailure, .cannotCreateOutput,
                                             .ioFailure, .storeBusy, .badConfiguration]
}
