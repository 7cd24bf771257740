/// What `storekeep account` showed or did (its `--json` document; fields are only ever added).
public struct AccountReport: Codable, Sendable {
    public var store: String
    /// The account after the command (`nil`: none).
    public var account: String?
    /// The account before.
    public var previous: String?
    /// `shown`, `adopted` (a store without an account took one), `unchanged`, `keptLocal`, `reset`.
    public var action: String
    /// For `reset`: the backup that holds the local data set aside, and the new store's peer ID.
    public var backup: String?
    public var newPeerID: String?
}
