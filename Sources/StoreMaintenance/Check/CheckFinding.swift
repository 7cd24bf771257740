/// One broken invariant found by ``StoreChecker``, with the subject fields `repair` acts on.
///
/// Every finding has a ``code``, a ``severity``, the ``globalIDs`` concerned (empty when no record
/// is concerned), a ``message`` and a ``hint``. The optional fields name the subject exactly; each
/// code fills the ones listed for it in `docs/checks.md`. Absent fields are left out of JSON.
/// Group findings (``CheckCode/seedDuplicate``, ``CheckCode/singletonDuplicate``,
/// ``CheckCode/uniqueViolated``, ``CheckCode/relationshipSharedTarget``) are one finding per group,
/// listing every member.
///
/// ```swift
/// for finding in report.findings where finding.code == .seedDuplicate {
///     let keep = finding.records?.max { ($0.seedVersion ?? 0, $1.globalID) < ($1.seedVersion ?? 0, $0.globalID) }
/// }
/// ```
public struct CheckFinding: Codable, Sendable, Hashable {
    /// What kind of finding this is (stable).
    public var code: CheckCode
    /// The code's severity.
    public var severity: CheckSeverity
    /// The entity concerned: the record's exact entity, or for a group the entity whose rule is broken.
    public var entity: String?
    /// The global IDs of the records concerned, sorted.
    public var globalIDs: [String]
    /// What is wrong, in one sentence.
    public var message: String
    /// What the operator can do.
    public var hint: String

    /// The attribute or relationship concerned.
    public var property: String?
    /// For a one-to-one pair, the relationship on the other side.
    public var inverseProperty: String?
    /// The SQLite table concerned (an entity table or a join table).
    public var table: String?
    /// The column concerned (for a join row: `owner` or `target`, the side that dangles).
    public var column: String?
    /// The global ID pointed at: a dangling or shared target, or the partner of a one-to-one record.
    public var target: String?
    /// The entity of ``target`` when it exists but is not allowed.
    public var targetEntity: String?
    /// For a join row: its `owner` value (``target`` holds its `target` value).
    public var owner: String?
    /// For a one-to-one mismatch: what the partner points back at (absent when it points nowhere).
    public var inverseTarget: String?
    /// The offending value, as text (a blob as `<N bytes>`).
    public var value: String?
    /// The model's minimum (value, or length for strings), as written in the model.
    public var minimum: String?
    /// The model's maximum, as written in the model.
    public var maximum: String?
    /// The regular expression a value fails.
    public var pattern: String?
    /// A count: members of a to-many relationship, changes of an orphaned transaction, transactions of an unknown peer.
    public var count: Int?
    /// The attributes that identify a duplicate group, in order.
    public var keyAttributes: [String]?
    /// The group's shared values of ``keyAttributes``, as text (`null` for an empty value).
    public var keyValues: [String]?
    /// The members of a group, sorted by global ID.
    public var records: [FindingRecord]?
    /// The peer concerned (history findings).
    public var peer: String?
    /// The missing sequence numbers of ``peer``.
    public var missingSequences: [SequenceRange]?
    /// The `sk_transaction` ID concerned (history).
    public var transaction: Int64?
    /// The `sk_migration` run concerned.
    public var migration: Int64?
    /// A file concerned: a blob file, a mapping or step file, the lock file.
    public var file: String?
    /// The content address of a blob (64 hex digits).
    public var blobHash: String?
    /// The SHA-256 the file actually has (blob content mismatch, changed migration file).
    public var actualHash: String?
    /// The checksum recorded for a migration file.
    public var expectedHash: String?

    /// Creates a finding of `code` (its severity follows from the code).
    public init(code: CheckCode, entity: String? = nil, globalIDs: [String] = [], message: String, hint: String) {
        self.code = code
        self.severity = code.severity
        self.entity = entity
        self.globalIDs = globalIDs.sorted()
        self.message = message
        self.hint = hint
    }
}
