import ObjectModel

/// Everything that can go wrong when creating, opening or changing a store, with a hint for the operator.
///
/// ```swift
/// do { _ = try SyncStore.open(at: path, expecting: model) }
/// catch let error as StoreError { print(error.description, error.hint ?? "") }
/// ```
public struct StoreError: OperatorFacingError, Hashable {
    /// What went wrong, as a machine-readable reason.
    public enum Reason: String, Sendable, Codable {
        /// The store file does not exist.
        case notFound
        /// The file is not a SQLite database.
        case notSQLite
        /// The file is SQLite but not a storekeep store.
        case notAStore
        /// The store's format version is unknown to this build.
        case unknownFormat
        /// The store's metadata or model definition is damaged.
        case damaged
        /// The store was made with another model version.
        case modelMismatch
        /// The model cannot be used for a store.
        case unusableModel
        /// The target path already exists or cannot be written.
        case cannotCreate
        /// A call named an entity, property or record that does not exist, or gave a wrong value.
        case invalidRequest
        /// Another process holds the database.
        case busy
        /// Reading or writing the database or its files failed.
        case io
    }

    /// The reason.
    public var reason: Reason
    /// The store file concerned.
    public var path: String
    /// What is wrong, in one sentence (without the path).
    public var message: String
    /// What the operator can do.
    public var hint: String?

    /// Creates the error.
    public init(_ reason: Reason, path: String, message: String, hint: String? = nil) {
        self.reason = reason
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }

    /// The failure kind, which decides the exit code.
    public var failureKind: FailureKind {
        switch reason {
        case .notFound: return .missingInput
        case .notSQLite, .notAStore, .unknownFormat, .damaged, .modelMismatch, .unusableModel: return .badInput
        case .cannotCreate: return .cannotCreateOutput
        case .invalidRequest: return .usage
        case .busy: return .storeBusy
        case .io: return .ioFailure
        }
    }
}
