import Foundation
import SyncContainer
import SyncStore

extension SyncSession {
    /// Follows a rekey of the store's content name (article 3): imports what remains in the old
    /// namespace, then, when the new one holds the same model version, applies its baseline where
    /// the logs cannot bring the store up to it, and moves the store there: its own transactions
    /// the baseline does not hold are exported there next. A store on another model version is
    /// told to migrate first, and stays where it is.
    ///
    /// - Returns: whether the store moved.
    func followRedirect(_ redirect: Redirect, path: String) throws -> Bool {
        let old = namespace.contentName
        try fixIfNeeded(imported: try importAll(), path: path)
        guard redirect.modelHash == store.metadata.modelHash else {
            report.findings.append(SyncFinding(
                code: "content.moved", severity: "error", file: namespace.redirectPath,
                message: "content name \(old) was rekeyed to \(redirect.to) by peer \(redirect.by), with model version '\(redirect.modelVersion)' (hash \(redirect.modelHash.prefix(12))); this store is on '\(store.metadata.modelVersion)'",
                hint: "migrate this store to '\(redirect.modelVersion)' first (`storekeep migrate`), then sync the migrated store"))
            return false
        }
        report.followedRedirectFrom = old
        guard !options.dryRun else { return false }
        let target = SyncNamespace(container: namespace.container, contentName: redirect.to, modelHash: redirect.modelHash)
        let header: BaselineHeader
        do {
            let sha: String
            (header, sha) = try target.verifyBaseline(redirect.baseline)
            guard sha == redirect.baselineSHA256 else {
                throw ContainerError(.damagedLog, path: "\(target.baselineFolder)/\(redirect.baseline)",
                                     message: "is not the baseline the redirect names: its SHA-256 is \(sha.prefix(16))…, the redirect's \(redirect.baselineSHA256.prefix(16))…",
                                     hint: "")
            }
        } catch let error as ContainerError {
            report.findings.append(SyncFinding(code: "baseline.damaged", severity: "error", file: error.path, message: error.message,
                                               hint: "the peer that rekeyed (\(redirect.by)) can make it again with `storekeep rekey`; until then this store stays on \(old)"))
            return false
        }
        namespace = target
        try applyBaselineIfNeeded()
        try store.switchContentName(to: redirect.to, exportedThrough: header.vector[peer] ?? 0,
                                    description: "content name \(old) → \(redirect.to), following the rekey by peer \(redirect.by)")
        store = try SyncStore.open(at: path)
        report.contentName = redirect.to
        return true
    }
}
