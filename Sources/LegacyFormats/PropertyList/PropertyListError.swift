import ObjectModel

/// A property list that cannot be read: it names the file, the place in it (a line for XML, a
/// byte offset for binary), what is wrong and what to do.
///
/// ```swift
/// do {
///     let shape = try PropertyListDocument.open(at: url).shape()
/// } catch {
///     print(error.description)   // "/p/Changes.plist:2786: malformed XML: '<dict>' inside the tag <key>"
/// }
/// ```
public struct PropertyListError: OperatorFacingError, Hashable, Sendable {
    /// The file the problem is in.
    public var path: String
    /// The 1-based line of the problem in an XML property list, when known.
    public var line: Int?
    /// The byte offset of the problem in a binary property list, when known.
    public var offset: Int64?
    /// What is wrong, in one sentence.
    public var problem: String
    /// What the operator can do about it.
    public var hint: String?
    /// `.missingInput` for a file that does not exist or cannot be read, `.usage` for a bad
    /// argument (such as a negative start index), `.badInput` for malformed content.
    public var failureKind: FailureKind

    /// Creates the error.
    public init(
        path: String, line: Int? = nil, offset: Int64? = nil, problem: String, hint: String? = nil,
        failureKind: FailureKind = .badInput
    ) {
        self.path = path
        self.line = line
        self.offset = offset
        self.problem = problem
        self.hint = hint
        self.failureKind = failureKind
    }

    /// `path:line: problem` for XML, `path: byte N: problem` for binary, leaving out what is not known.
    public var description: String {
        if let line { return "\(path):\(line): \(problem)" }
        if let offset { return "\(path): byte \(offset): \(problem)" }
        return "\(path): \(problem)"
    }
}

extension PropertyListError {
    static let xmlHint =
        "The file is damaged or was not written by a property list writer; look at that line, or check it with `plutil -lint` on a Mac."
    static let binaryHint =
        "The binary property list is damaged (truncated or corrupt); get a fresh copy, or check it with `plutil -lint` on a Mac."

    static func xml(_ path: String, line: Int, _ problem: String) -> PropertyListError {
        PropertyListError(path: path, line: line, problem: "malformed XML: " + problem, hint: xmlHint)
    }

    static func binary(_ path: String, offset: Int64?, _ problem: String) -> PropertyListError {
        PropertyListError(path: path, offset: offset, problem: "malformed binary plist: " + problem, hint: binaryHint)
    }

    static let outOfRangeHint =
        "storekeep carries whole numbers from -9223372036854775808 to 9223372036854775807 exactly and refuses others rather than change them; if the value matters, have the program that writes the file store it as a string."

    /// An integer outside `Int64`, at byte `offset` of a binary property list (`problem` says
    /// which object and its value).
    static func outOfRange(_ path: String, offset: Int64?, _ problem: String) -> PropertyListError {
        PropertyListError(path: path, offset: offset, problem: problem + ", outside the 64-bit range storekeep carries exactly", hint: outOfRangeHint)
    }

    /// An integer outside `Int64` on `line` of an XML property list.
    static func outOfRange(_ path: String, line: Int, _ problem: String) -> PropertyListError {
        PropertyListError(path: path, line: line, problem: problem + ", outside the 64-bit range storekeep carries exactly", hint: outOfRangeHint)
    }
}
