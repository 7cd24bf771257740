/// What importing other peers' transactions did (``SyncStore/applyRemoteTransactions(_:)``).
public struct RemoteImportReport: Hashable, Sendable, Codable {
    /// Per peer: transactions and changes imported.
    public var transactions: [String: Int] = [:]
    public var changes: [String: Int] = [:]
    /// Transactions skipped because the store already held them.
    public var alreadyImported = 0
    /// Property values (and memberships) an imported change set but a later one here had already
    /// set: last writer wins, so these were not applied.
    public var conflictsLost = 0
    /// Property values an imported change set over an earlier value set here.
    public var conflictsWon = 0
    /// Changes to records deleted here (or in the same import): a delete wins, so they were not applied.
    public var changesToDeletedRecords = 0
    /// Changes that could not be applied at all (an update of a record this store never had, an
    /// insert of an abstract entity, …), with why.
    public var skipped: [String] = []

    /// An empty report.
    public init() {}

    /// Adds `other` to this report.
    public mutating func merge(_ other: RemoteImportReport) {
        transactions.merge(other.transactions, uniquingKeysWith: +)
        changes.merge(other.changes, uniquingKeysWith: +)
        alreadyImported += other.alreadyImported
        conflictsLost += other.conflictsLost
        conflictsWon += other.conflictsWon
        changesToDeletedRecords += other.changesToDeletedRecords
        skipped += other.skipped
    }
}
