import ObjectModel

/// A Core Data store that cannot be read: it names the store, what is wrong and what to do.
///
/// ```swift
/// do {
///     let reader = try CoreDataStoreReader.open(at: url)
/// } catch {
///     print(error.description)   // "/s/Notes.plist: not a SQLite database; it looks like an XML property list"
/// }
/// ```
public struct CoreDataStoreError: OperatorFacingError, Hashable, Sendable {
    /// The store (or the file next to it) the problem is with.
    public var path: String
    /// What is wrong, in one sentence.
    public var problem: String
    /// What the operator can do about it.
    public var hint: String?
    /// `.missingInput` for a missing or unreadable file, `.badInput` for wrong content,
    /// `.storeBusy` for a store that kept changing while it was copied, `.ioFailure` otherwise.
    public var failureKind: FailureKind

    /// Creates the error.
    public init(path: String, problem: String, hint: String? = nil, failureKind: FailureKind = .badInput) {
        self.path = path
        self.problem = problem
        self.hint = hint
        self.failureKind = failureKind
    }

    /// `path: problem`.
    public var description: String { "\(path): \(problem)" }
}
