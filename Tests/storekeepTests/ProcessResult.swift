import Foundation

/// What one run of the `storekeep` binary produced.
struct ProcessResult: Sendable, CustomStringConvertible {
    /// The arguments it ran with.
    var arguments: [String]
    /// The exit status.
    var status: Int32
    /// Everything written on stdout.
    var stdout: String
    /// Everything written on stderr.
    var stderr: String

    /// Parses stdout as one JSON object.
    ///
    /// - Throws: when stdout is not a JSON object (the error shows stdout, for diagnosis).
    func jsonObject() throws -> [String: Any] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        } catch {
            throw StorekeepProcess.HarnessError(description: "stdout is not JSON: \(error)\n\(self)")
        }
        guard let object = value as? [String: Any] else {
            throw StorekeepProcess.HarnessError(description: "stdout is JSON but not an object\n\(self)")
        }
        return object
    }

    /// The `error` object of a JSON error document on stdout.
    func jsonError() throws -> [String: Any] {
        guard let error = try jsonObject()["error"] as? [String: Any] else {
            throw StorekeepProcess.HarnessError(description: "stdout has no \"error\" object\n\(self)")
        }
        return error
    }

    /// The command line, status and both streams, for failure messages.
    var description: String {
        "storekeep \(arguments.joined(separator: " ")) → \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}
