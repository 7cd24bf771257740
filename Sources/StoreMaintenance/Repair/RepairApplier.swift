import Foundation
import SyncStore

/// Carries out a ``RepairPlan`` on a store, and says truthfully what it did: the fixes done, and
/// for each one not done, why.
///
/// Fixes are applied in the plan's order (runs of emptied references of one relationship at once,
/// as the plan was rehearsed). Each fix checks its records again before it changes anything, so a
/// fix a concurrent change made moot is skipped with a note instead of applied blindly.
struct RepairApplier {
    /// What applying some fixes came to.
    struct Outcome {
        /// How many fixes were carried out completely.
        var done = 0
        /// One note for each part of a fix that was not carried out.
        var skipped: [String] = []
        /// Files kept because they changed within the grace period.
        var tooRecent: [String] = []
    }

    let store: SyncStore
    /// The history author of the save (`storekeep.repair`; `storekeep.import` after a sync).
    var author = StoreRepairer.author

    /// Applies the database fixes in one save by ``StoreRepairer/author``: all of them or none.
    ///
    /// - Throws: `StoreError` when writing fails; ``MaintenanceError`` `storeBusy` when the save refuses
    ///   a change the rehearsal allowed (the store changed meanwhile). Nothing is changed then.
    func apply(_ fixes: [RepairFix]) throws -> Outcome {
        guard !fixes.isEmpty else { return Outcome() }
        do {
            return try save(fixes)
        } catch let error as StoreError where error.reason == .invalidRequest {
            throw MaintenanceError(
                path: store.path, problem: "the repair could not be applied: \(error.message); nothing was changed",
                hint: "the store changed since it was checked (does another program write it?); run `storekeep repair` again",
                failureKind: .storeBusy)
        }
    }

    private func save(_ fixes: [RepairFix]) throws -> Outcome {
        try store.save(author: author) { tx in
            var outcome = Outcome()
            func exists(_ id: String) throws -> Bool { try tx.entity(of: GlobalID(id)) != nil }
            var next = 0
            while next < fixes.count {
                let fix = fixes[next]
                if fix.action == .nullifyReference {
                    var end = next
                    while end < fixes.count, RepairPlanner.sameReferenceGroup(fix, fixes[end]) { end += 1 }
                    let group = fixes[next..<end]
                    next = end
                    let cleared = Set(try tx.clearInvalidReferences(fix.property ?? "", ofRecordsOf: fix.entity ?? "",
                                                                    group.flatMap(\.globalIDs).map(GlobalID.init)).map(\.rawValue))
                    for member in group {
                        let missed = member.globalIDs.filter { !cleared.contains($0) }
                        if missed.isEmpty { outcome.done += 1 }
                        for id in missed { outcome.skipped.append("\(id).\(member.property ?? "?") no longer points at an invalid target: left as it is") }
                    }
                    continue
                }
                next += 1
                var complete = true
                switch fix.action {
                case .releaseSlot:
                    for id in fix.globalIDs where try !exists(id) || !tx.releaseUnreturnedReference(fix.property ?? "", of: GlobalID(id)) {
                        complete = false
                        outcome.skipped.append("\(id).\(fix.property ?? "?") agrees with its partner now, or is gone: left as it is")
                    }
                case .removeJoinRow:
                    if let table = fix.table, let owner = fix.owner, let target = fix.target,
                       try tx.removeJoinRow(in: table, owner: GlobalID(owner), target: GlobalID(target)) {
                        break
                    }
                    complete = false
                    outcome.skipped.append("the row (\(fix.owner ?? "?"), \(fix.target ?? "?")) of \(fix.table ?? "?") is gone already")
                case .mergeDuplicates:
                    guard let keeper = fix.keeper, try exists(keeper) else {
                        complete = false
                        outcome.skipped.append("merge into \(fix.keeper ?? "?"): the record to keep no longer exists; nothing merged")
                        break
                    }
                    for duplicate in fix.removed ?? [] {
                        if try exists(duplicate) {
                            try tx.merge(GlobalID(duplicate), into: GlobalID(keeper))
                        } else {
                            complete = false
                            outcome.skipped.append("\(fix.entity ?? "record") \(duplicate) is gone already: not merged into \(keeper)")
                        }
                    }
                case .deleteRecord:
                    for id in fix.globalIDs {
                        guard try exists(id) else {
                            complete = false
                            outcome.skipped.append("\(fix.entity ?? "record") \(id) is gone already")
                            continue
                        }
                        if let blocker = try tx.deletionBlocker(of: GlobalID(id)) {
                            complete = false
                            outcome.skipped.append("\(fix.entity ?? "record") \(id) not deleted: \(blocker)")
                        } else {
                            try tx.delete(GlobalID(id))
                        }
                    }
                case .realignSyncCounters:
                    if try !tx.realignSyncCounters() {
                        complete = false
                        outcome.skipped.append("the sync counters already agree with the history")
                    }
                case .nullifyReference, .removeOrphanedFile, .takeOverStaleLock:
                    continue
                }
                if complete { outcome.done += 1 }
            }
            return outcome
        }
    }

    /// Removes the files of ``RepairAction/removeOrphanedFile`` fixes: orphaned blob files (checked
    /// again for references inside a write transaction) and files with names that are not blob names.
    func removeFiles(_ fixes: [RepairFix], modifiedBefore cutoff: Date) throws -> Outcome {
        var outcome = Outcome()
        let blobs = try store.removeUnreferencedBlobs(fixes.compactMap(\.blobHash), modifiedBefore: cutoff)
        let strays = try store.removeStrayBlobFolderFiles(fixes.filter { $0.blobHash == nil }.compactMap(\.file), modifiedBefore: cutoff)
        let removed = Set(blobs.removed + strays.removed)
        for fix in fixes {
            guard let key = fix.blobHash ?? fix.file else { continue }
            if removed.contains(key) {
                outcome.done += 1
            } else if blobs.referenced.contains(key) {
                outcome.skipped.append("file \(fix.file ?? key) is referred to after all: kept")
            } else if strays.referenced.contains(key) {
                outcome.skipped.append("\(key) is not a file of the blob folder that repair may remove: kept")
            } else if blobs.missing.contains(key) || strays.missing.contains(key) {
                outcome.skipped.append("file \(fix.file ?? key) is gone already")
            } else {
                outcome.tooRecent.append(key)
            }
        }
        return outcome
    }
}
