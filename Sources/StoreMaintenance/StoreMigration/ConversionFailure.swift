/// Why one value could not be converted (the record is rejected with this reason).
public struct ConversionFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, in a few words ("the text 'abc' is not a whole number").
    public var description: String

    /// Creates a failure.
    public init(_ description: String) { self.description = description }
}
