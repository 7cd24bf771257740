import ArgumentParser
import ObjectModel

/// A failure as the operator sees it: kind, exit status, message and hint.
///
/// Built from any error a command throws, so that every failure is reported the same way:
/// `storekeep: error: <message>` and `hint: <hint>` on stderr, plus an ``ErrorDocument`` on
/// stdout under `--json`.
struct FailureReport: Equatable, Sendable {
    /// The kind of failure.
    var kind: FailureKind
    /// The exit status.
    var status: Int32
    /// What went wrong.
    var message: String
    /// What to do about it.
    var hint: String?

    /// Classifies an error that is neither a ``CommandExit`` nor a clean ArgumentParser exit.
    ///
    /// - An `OperatorFacingError` keeps its kind, description and hint.
    /// - An ArgumentParser parse or validation error is a usage error (64).
    /// - Anything else is an internal failure (70): a library should have thrown an
    ///   `OperatorFacingError`.
    init(error: any Error, root: any ParsableCommand.Type) {
        if let failure = error as? any OperatorFacingError {
            self.init(kind: failure.failureKind, message: failure.description, hint: failure.hint)
        } else if root.exitCode(for: error) == .validationFailure {
            self.init(
                kind: .usage,
                message: root.message(for: error),
                hint: "run 'storekeep help <command>' for usage")
        } else {
            self.init(
                kind: .internalFailure,
                message: String(describing: error),
                hint: "this is a bug in storekeep; please report it with the command line that caused it")
        }
    }

    /// Creates a report of the given kind, with its documented exit status.
    ///
    /// Control characters in the message and hint (a NUL in a name read from a file, say) are
    /// written as escapes (`\0`): text from a file never reaches the terminal raw.
    init(kind: FailureKind, message: String, hint: String?) {
        self.kind = kind
        self.status = kind.exitStatus
        self.message = message.escapingControlCharacters()
        self.hint = hint?.escapingControlCharacters()
    }

    /// The stderr text: `storekeep: error: …` and, when there is one, `hint: …`.
    var text: String {
        var lines = ["storekeep: error: \(message)"]
        if let hint { lines.append("hint: \(hint)") }
        return lines.joined(separator: "\n")
    }

    /// The `--json` document for stdout.
    var document: ErrorDocument {
        ErrorDocument(kind: kind, exitCode: status, message: message, hint: hint)
    }
}
