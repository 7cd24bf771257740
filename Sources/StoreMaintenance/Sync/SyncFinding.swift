/// Something `sync` could not use or wants the operator to know, with the file or peer concerned.
public struct SyncFinding: Codable, Hashable, Sendable {
    /// What kind of finding (documented in `docs/container.md`, "Findings"); new codes may be added.
    public var code: String
    /// `error`: something could not be imported (the command exits 65); `warning`: reported only.
    public var severity: String
    /// The peer concerned.
    public var peer: String?
    /// The file concerned.
    public var file: String?
    /// What is wrong.
    public var message: String
    /// What to do.
    public var hint: String?

    /// Creates a finding.
    public init(code: String, severity: String, peer: String? = nil, file: String? = nil, message: String, hint: String? = nil) {
        self.code = code
        self.severity = severity
        self.peer = peer
        self.file = file
        self.message = message
        self.hint = hint
    }

    /// Whether this finding means something was left out of the import.
    public var isError: Bool { severity == "error" }
}
