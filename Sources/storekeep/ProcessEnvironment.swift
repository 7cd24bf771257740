import Foundation

/// The environment variables storekeep reads, captured once so that settings resolution can be
/// tested with a made-up environment.
struct ProcessEnvironment: Sendable {
    /// Variable names and values.
    var variables: [String: String]

    /// Creates an environment from explicit variables.
    init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// The environment of this process.
    static var current: ProcessEnvironment {
        ProcessEnvironment(ProcessInfo.processInfo.environment)
    }

    /// The value of a variable; an empty value counts as unset.
    subscript(name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }
}
