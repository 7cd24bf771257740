/// A model version was asked for by a name the bundle does not have.
public struct ModelLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model's name.
    public var model: String
    /// The version name asked for.
    public var wanted: String
    /// The version names the bundle has.
    public var available: [String]

    /// Creates the error.
    public init(model: String, wanted: String, available: [String]) {
        self.model = model
        self.wanted = wanted
        self.available = available
    }

    /// One sentence naming what was asked for and what exists.
    public var description: String {
        "model \(model) has no version named '\(wanted)'; it has: \(available.joined(separator: ", "))"
    }
}

extension ModelLookupError: OperatorFacingError {
    /// A version name that does not exist is a wrong argument.
    public var failureKind: FailureKind { .usage }

    /// Names the versions to choose from.
    public var hint: String? { "choose one of: \(available.joined(separator: ", "))" }
}
