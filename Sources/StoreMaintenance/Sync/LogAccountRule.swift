import SyncContainer

/// Which account an imported log's data must belong to (`docs/container.md`, "Accounts"): the
/// store's own. A log says its account in its header; a log without one (written before logs
/// carried it, or by a store without an account) counts as its peer's, as the container tells it.
struct LogAccountRule {
    /// The importing store's account.
    let own: String?
    /// The account the container gives the log's peer (its manifest's, else its newest log's).
    let peerAccount: String?

    /// The finding that stops the import of a log of another account, or `nil` when it may be imported.
    func refusal(of header: LogHeader, path: String) -> SyncFinding? {
        let theirs = header.account ?? peerAccount
        guard theirs != own else { return nil }
        return SyncFinding(
            code: "account.mismatch", severity: "error", peer: header.peer, file: path,
            message: "holds data of \(theirs.map { "account \($0)" } ?? "no account"), not of this store's \(own.map { "account \($0)" } ?? "(none)"): it was not imported, nor anything of that peer after it",
            hint: own == nil ? "give the store its account first (`storekeep account STORE --set TOKEN`)"
                : "sync each account's stores through that account's own container; a store without an account joins one with `storekeep account STORE --set TOKEN` (its data is kept)")
    }
}
