import Foundation
import SyncStore

/// The fixes `sync` makes after an import: `repair`'s deterministic rules and code, saved as one
/// transaction by ``StoreSynchronizer/importAuthor`` (article 2: an import never fails on
/// validation; what it brought in that breaks an invariant is fixed afterwards, the same way on
/// every peer, so that peers holding the same content make the same fixes and still converge).
///
/// File fixes (orphaned blob files, stale locks) are left to `repair`: they depend on time and on
/// the local disk, not on the content.
struct ImportFixer {
    /// The finding codes whose fixes an import makes.
    static let codes = RepairPlanner.repairableCodes.subtracting([.blobOrphaned, .lockStale])

    let path: String

    /// Checks the store, plans and applies the fixes; returns their descriptions.
    func run() throws -> [String] {
        var options = RepairOptions(only: Self.codes, dryRun: false, backup: false)
        options.contentOnlyCheck = true
        let repairer = StoreRepairer(path: path, options: options)
        let (plan, store) = try repairer.planFromCheck(cutoff: Date(), tookOver: nil)
        let fixes = plan.fixes.filter { Self.codes.contains($0.code) && $0.action != .removeOrphanedFile && $0.action != .takeOverStaleLock }
        guard !fixes.isEmpty else { return [] }
        var applier = RepairApplier(store: store)
        applier.author = StoreSynchronizer.importAuthor
        _ = try applier.apply(fixes)
        return fixes.map(\.description)
    }
}
