import ObjectModel

/// A data model file that cannot be read: it names the file, the place in it, what is wrong and
/// what to do.
///
/// ```swift
/// do {
///     let bundle = try XcodeModelReader().readModel(at: url)
/// } catch {
///     print(error.description)   // "/m/Foo.xcdatamodel/contents:12:5: malformed XML: ..."
/// }
/// ```
public struct XcodeModelError: OperatorFacingError, Hashable, Sendable {
    /// The file (or folder) the problem is in.
    public var path: String
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column of the problem, when known.
    public var column: Int?
    /// What is wrong, in one sentence.
    public var problem: String
    /// What the operator can do about it.
    public var hint: String?
    /// `.missingInput` for a path that does not exist or cannot be read, `.badInput` otherwise.
    public var failureKind: FailureKind

    /// Creates the error.
    public init(
        path: String, line: Int? = nil, column: Int? = nil, problem: String, hint: String? = nil,
        failureKind: FailureKind = .badInput
    ) {
        self.path = path
        self.line = line
        self.column = column
        self.problem = problem
        self.hint = hint
        self.failureKind = failureKind
    }

    /// `path:line:column: problem`, leaving out the parts that are not known.
    public var description: String {
        var place = path
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): \(problem)"
    }
}
