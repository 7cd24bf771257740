/// One structural problem of a model, with the entity and property it is about, so that a reader
/// that knows where they are declared can name the line.
///
/// ```swift
/// let problem = model.problems().first
/// problem?.entity        // "Book"
/// problem?.property      // "title"
/// problem?.description   // "entity Book has two properties named title"
/// ```
public struct ModelProblem: Hashable, Sendable, CustomStringConvertible {
    /// The entity the problem is about, when it is about one.
    public var entity: String?
    /// The property (of ``entity``) the problem is about, when it is about one.
    public var property: String?
    /// The configuration the problem is about, when it is about one.
    public var configuration: String?
    /// Which declaration of ``entity`` (or of its ``property``) it is about: 1 for the first, 2 for
    /// the second (a name declared twice).
    public var occurrence: Int
    /// The problem in one sentence.
    public var description: String

    /// Creates a problem.
    public init(entity: String? = nil, property: String? = nil, configuration: String? = nil, occurrence: Int = 1, description: String) {
        self.entity = entity
        self.property = property
        self.configuration = configuration
        self.occurrence = occurrence
        self.description = description
    }
}
