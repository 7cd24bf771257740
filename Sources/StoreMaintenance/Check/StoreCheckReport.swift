/// What ``StoreChecker`` found in one store.
///
/// Field names are part of the JSON contract of `storekeep check --json`: fields are only ever added.
///
/// ```swift
/// let report = StoreChecker(options: CheckOptions()).check(storeAt: "speeches.store")
/// report.status            // .ok, .warnings, .violations or .failed
/// report.findings.map(\.code)
/// ```
public struct StoreCheckReport: Codable, Sendable {
    /// The store file, as given.
    public var path: String
    /// The outcome: worst severity found, or `failed` when the store could not be checked.
    public var status: CheckStatus
    /// The depth checked.
    public var depth: CheckDepth
    /// The findings, sorted by code, entity, property and global IDs.
    public var findings: [CheckFinding]
    /// Findings counted but not listed, because the finding limit was reached.
    public var omitted: [OmittedFindings]
    /// Why the store could not be checked (only when `status` is `failed`).
    public var error: CheckFailure?
    /// The model version the records were checked against, when the store's model could be read.
    public var modelVersion: String?
    /// How the store was read: `snapshot` (a read transaction beside any writer) or `immutable`
    /// (a store no process had open, read without creating `-wal`/`-shm` files).
    public var readMode: String?
    /// Seconds the check took.
    public var seconds: Double

    /// Creates a report; the status follows from the findings and the error.
    public init(path: String, depth: CheckDepth, findings: [CheckFinding], omitted: [OmittedFindings] = [], error: CheckFailure? = nil,
                modelVersion: String? = nil, readMode: String? = nil, seconds: Double = 0) {
        self.path = path
        self.depth = depth
        self.findings = findings
        self.omitted = omitted
        self.error = error
        self.modelVersion = modelVersion
        self.readMode = readMode
        self.seconds = seconds
        if error != nil {
            status = .failed
        } else {
            let worst = (findings.map(\.severity) + omitted.map(\.code.severity)).max()
            status = worst.map { $0 == .violation ? .violations : .warnings } ?? .ok
        }
    }

    /// Number of findings of each severity, omitted ones included.
    public func count(of severity: CheckSeverity) -> Int {
        findings.filter { $0.severity == severity }.count
            + omitted.filter { $0.code.severity == severity }.reduce(0) { $0 + $1.count }
    }
}
