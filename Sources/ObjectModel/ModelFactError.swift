/// A storekeep key in an entity's `userInfo` whose value cannot be used.
public struct ModelFactError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entity whose `userInfo` holds the key.
    public var entity: String
    /// The `userInfo` key.
    public var key: String
    /// The value as written.
    public var value: String
    /// What is wrong with the value.
    public var problem: String

    /// Creates the error.
    public init(entity: String, key: String, value: String, problem: String) {
        self.entity = entity
        self.key = key
        self.value = value
        self.problem = problem
    }

    /// One sentence naming the entity, the key and the problem.
    public var description: String {
        "entity \(entity): userInfo \(key) = '\(value)' \(problem)"
    }
}
