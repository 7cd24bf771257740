import ObjectModel

/// The JSON document printed on stdout when a command fails under `--json`.
///
/// ```json
/// {"error": {"exitCode": 65, "hint": "…", "kind": "badInput", "message": "…"}}
/// ```
/// Fields are only ever added; `hint` is absent when there is none.
struct ErrorDocument: Encodable, Equatable, Sendable {
    /// The body of the document.
    struct Body: Encodable, Equatable, Sendable {
        /// The failure kind, as its `FailureKind` raw value (`usage`, `badInput`, …).
        var kind: String
        /// The process exit status.
        var exitCode: Int32
        /// What went wrong, as printed on stderr.
        var message: String
        /// What the operator can do about it, if known.
        var hint: String?
    }

    /// The failure.
    var error: Body

    /// Creates a document for a failure of the given kind.
    init(kind: FailureKind, exitCode: Int32, message: String, hint: String?) {
        error = Body(kind: kind.rawValue, exitCode: exitCode, message: message, hint: hint)
    }
}
