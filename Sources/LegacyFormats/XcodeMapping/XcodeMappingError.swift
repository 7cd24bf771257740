import ObjectModel

/// An Xcode mapping model (`.xcmappingmodel`) that cannot be read: it names the file, what is wrong
/// and what to do.
///
/// ```swift
/// do {
///     let mapping = try XcodeMappingReader().read(at: url)
/// } catch {
///     print(error.description)   // "/m/V2toV3.xcmappingmodel/xcmapping.xml: malformed XML: …"
/// }
/// ```
public struct XcodeMappingError: OperatorFacingError, Hashable, Sendable {
    /// The file (or folder) the problem is in.
    public var path: String
    /// What is wrong, in one sentence.
    public var problem: String
    /// What the operator can do about it.
    public var hint: String?
    /// `.missingInput` for a path that does not exist or cannot be read, `.badInput` otherwise.
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
