import Foundation
import ObjectModel

/// Turns `check` findings into a deterministic ``RepairPlan`` (the rules are in `docs/repair.md`).
///
/// Every choice depends only on the findings and on facts two peers with the same content share
/// (seed versions, creation times, global IDs, who edited a record), never on row ids or on the
/// order rows happen to be stored in. ``plan(for:)`` answers the findings;
/// ``completing(_:findings:rehearsal:blobFile:)`` then rehearses the plan on the store and adds
/// what its own fixes cause, so that a dry run and a real run make the same plan.
struct RepairPlanner {
    /// The store's model (policies and singletons come from its `userInfo` facts).
    let model: ManagedModel
    /// Global IDs of records the user has edited (``SyncStore/userModifiedRecords(among:)``).
    let userModified: Set<String>
    /// For a one-to-one target and the name of its inverse relationship, the record it points back at.
    let backPointer: (_ target: String, _ inverse: String) -> String?
    /// When set, only findings of these codes are planned for.
    let only: Set<CheckCode>?
    /// Orphaned files last modified at or after this time are kept: a writer may be about to refer to them.
    var orphanCutoff: Date = .distantPast
    /// The grace period behind ``orphanCutoff``, for messages.
    var orphanGracePeriod: TimeInterval = RepairOptions.defaultOrphanGracePeriod
    /// When a file was last modified; `nil` when it does not exist.
    var fileModified: (String) -> Date? = { _ in nil }
    /// The owner recorded in a stale lock file, when it can be read.
    var staleLockOwner: (String) -> StoreLock.Owner? = { _ in nil }

    /// The codes whose findings make a record invalid, so that its entity's policy applies.
    static let invalidRecordCodes: Set<CheckCode> = [
        .recordRequiredAttribute, .recordRequiredRelationship, .recordRelationshipCount,
        .recordValueOutOfRange, .recordPatternMismatch, .recordWrongType,
    ]

    /// The codes repair can fix (at least for some findings, depending on the policy).
    static let repairableCodes: Set<CheckCode> = invalidRecordCodes.union([
        .seedDuplicate, .singletonDuplicate, .relationshipDanglingTarget, .relationshipWrongTargetEntity,
        .relationshipDanglingJoinRow, .relationshipSharedTarget, .relationshipInverseMismatch,
        .blobOrphaned, .lockStale, .syncCounterBehind, .syncWatermarkMismatch,
    ])

    func plan(for findings: [CheckFinding]) -> RepairPlan {
        var fixes: [RepairFix] = []
        var leftovers: [RepairLeftover] = []
        var ignored = 0
        var deleted = Set<String>()
        for finding in findings {
            // A real run always takes a stale lock over (it needs the lock), whatever `--only` says.
            if let only, !only.contains(finding.code), finding.code != .lockStale {
                ignored += 1
                continue
            }
            switch finding.code {
            case .seedDuplicate:
                planSeedDuplicates(finding, fixes: &fixes, leftovers: &leftovers)
            case .singletonDuplicate:
                planSingletonDuplicates(finding, fixes: &fixes, leftovers: &leftovers)
            case .relationshipDanglingTarget, .relationshipWrongTargetEntity:
                var fix = RepairFix(code: finding.code, action: .nullifyReference, entity: finding.entity, globalIDs: finding.globalIDs,
                                    description: "empty \(finding.entity ?? "?").\(finding.property ?? "?") of \(finding.globalIDs.joined(separator: ", ")): it points at \(finding.target ?? "nothing usable")")
                fix.property = finding.property
                fix.target = finding.target
                fixes.append(fix)
            case .relationshipDanglingJoinRow:
                var fix = RepairFix(code: finding.code, action: .removeJoinRow, entity: finding.entity, globalIDs: finding.globalIDs,
                                    description: "remove the row (\(finding.owner ?? "?"), \(finding.target ?? "?")) of \(finding.table ?? "?"): one side names no record")
                fix.table = finding.table
                fix.owner = finding.owner
                fix.target = finding.target
                fix.property = finding.property
                fixes.append(fix)
            case .relationshipSharedTarget, .relationshipInverseMismatch:
                planSlotConflict(finding, fixes: &fixes, leftovers: &leftovers, deleted: &deleted)
            case let code where Self.invalidRecordCodes.contains(code):
                planInvalidRecord(finding, fixes: &fixes, leftovers: &leftovers, deleted: &deleted)
            case .blobOrphaned:
                planOrphanedFile(finding, fixes: &fixes, leftovers: &leftovers)
            case .syncCounterBehind, .syncWatermarkMismatch:
                guard !fixes.contains(where: { $0.action == .realignSyncCounters }) else { continue }
                fixes.append(RepairFix(code: finding.code, action: .realignSyncCounters,
                                       description: "set the sync counters to what the history holds (peer \(finding.peer ?? "?"))"))
            case .lockStale:
                let file = finding.file ?? ""
                fixes.append(Self.staleLockFix(file: file, owner: staleLockOwner(file)))
            default:
                leftovers.append(RepairLeftover(code: finding.code, entity: finding.entity, globalIDs: finding.globalIDs,
                                                reason: "repair does not fix \(finding.code.rawValue): \(finding.message)", hint: finding.hint))
            }
        }
        // In the order applied: by action, each action's fixes in the order of the findings (one
        // pass per action: a plan may hold a million fixes).
        var byRank: [[RepairFix]] = Array(repeating: [], count: RepairAction.allCases.count)
        for fix in fixes { byRank[fix.action.rank].append(fix) }
        return RepairPlan(fixes: byRank.flatMap { $0 }, leftovers: leftovers, ignored: ignored)
    }

    /// The fix for a stale lock file, the same whether it is planned from `check`'s finding (a dry
    /// run) or from the lock the run took over.
    static func staleLockFix(file: String, owner: StoreLock.Owner?) -> RepairFix {
        let left = owner.map { " left by \($0.command) (pid \($0.pid) on \($0.host), since \($0.started))" } ?? ""
        var fix = RepairFix(code: .lockStale, action: .takeOverStaleLock,
                            description: "take over \(file)\(left): the process that left it no longer runs")
        fix.file = file
        return fix
    }

    /// An orphaned file, or a file with a name that is not a blob name: removed when it is older
    /// than the grace period; a younger one is kept and reported (a writer may be about to use it).
    private func planOrphanedFile(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover]) {
        guard let file = finding.file, let modified = fileModified(file) else { return }   // gone already
        guard modified < orphanCutoff else {
            leftovers.append(youngFile(file, code: finding.code, modified: modified))
            return
        }
        let why = finding.blobHash == nil ? "it is in the blob folder but is not a blob file" : "no record refers to it"
        var fix = RepairFix(code: finding.code, action: .removeOrphanedFile, description: "remove \(file): \(why)")
        fix.blobHash = finding.blobHash
        fix.file = file
        fixes.append(fix)
    }

    /// The leftover for an orphaned file changed within the grace period.
    func youngFile(_ file: String, code: CheckCode, modified: Date) -> RepairLeftover {
        let minutes = Int((orphanGracePeriod / 60).rounded())
        let formatter = ISO8601DateFormatter()
        var leftover = RepairLeftover(
            code: code, entity: nil, globalIDs: [],
            reason: "\(file) changed less than \(minutes) minutes ago: a writer may be about to refer to it, so it is kept",
            hint: "run `storekeep repair` again after \(formatter.string(from: modified.addingTimeInterval(orphanGracePeriod))); it removes the file if it is still orphaned")
        leftover.file = file
        return leftover
    }

    /// Keeps one seed record per group: the newest seed version, ties broken by the smallest global
    /// ID, chosen among the records the user edited when there are any. Edited records are never deleted.
    private func planSeedDuplicates(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover]) {
        let records = finding.records ?? []
        let edited = records.filter { userModified.contains($0.globalID) }
        // The keeper depends on the records alone (newest seed version, then smallest global ID),
        // never on which edits this peer has seen: every peer keeps the same record, so peers that
        // merge at different times never delete one another's keepers.
        guard let keeper = records.min(by: { ($1.seedVersion ?? 0, $0.globalID) < ($0.seedVersion ?? 0, $1.globalID) }) else { return }
        let removed = records.filter { $0.globalID != keeper.globalID && !userModified.contains($0.globalID) }.map(\.globalID).sorted()
        let keptEdited = edited.filter { $0.globalID != keeper.globalID }.map(\.globalID).sorted()
        if !removed.isEmpty {
            fixes.append(mergeFix(finding, keeper: keeper.globalID, removed: removed))
        }
        if !keptEdited.isEmpty {
            leftovers.append(RepairLeftover(
                code: finding.code, entity: finding.entity, globalIDs: [keeper.globalID] + keptEdited,
                reason: "\(keptEdited.count) duplicate seed record\(keptEdited.count == 1 ? " was" : "s were") edited by the user; they are the user's and are never deleted",
                hint: "merge them in the app, or delete the ones the user does not need"))
        }
    }

    /// Keeps the earliest created record of a singleton entity (ties: the smallest global ID).
    private func planSingletonDuplicates(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover]) {
        let records = finding.records ?? []
        guard let keeper = records.min(by: { ($0.created, $0.globalID) < ($1.created, $1.globalID) }) else { return }
        let removed = records.map(\.globalID).filter { $0 != keeper.globalID }.sorted()
        guard !removed.isEmpty else { return }
        fixes.append(mergeFix(finding, keeper: keeper.globalID, removed: removed))
    }

    private func mergeFix(_ finding: CheckFinding, keeper: String, removed: [String]) -> RepairFix {
        var fix = RepairFix(code: finding.code, action: .mergeDuplicates, entity: finding.entity, globalIDs: [keeper] + removed,
                            description: mergeDescription(code: finding.code, entity: finding.entity, keeper: keeper, removed: removed))
        fix.keeper = keeper
        fix.removed = removed
        return fix
    }

    /// What a merge does, and why it keeps the record it keeps.
    func mergeDescription(code: CheckCode, entity: String?, keeper: String, removed: [String]) -> String {
        let links = "move the links of \(removed.joined(separator: ", ")) to it and delete them"
        guard code == .seedDuplicate else { return "keep \(entity ?? "singleton") \(keeper) (created first); \(links)" }
        let why = userModified.contains(keeper) ? "the user edited it" : "the newest seed version, then the smallest global ID"
        return "keep seed record \(keeper) (\(why)); \(links)"
    }

    /// Two records in one one-to-one slot, or a pair that disagrees: the holders the target does not
    /// point back at are invalid, and their entity's policy decides.
    private func planSlotConflict(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover], deleted: inout Set<String>) {
        var losers = finding.globalIDs
        if finding.code == .relationshipSharedTarget, let target = finding.target, let inverse = finding.inverseProperty {
            let winner = backPointer(target, inverse)
                ?? (finding.records ?? []).min(by: { ($0.created, $0.globalID) < ($1.created, $1.globalID) })?.globalID
            losers = finding.globalIDs.filter { $0 != winner }
        }
        let entity = finding.entity ?? ""
        switch model.facts(of: entity).invalidRecordPolicy {
        case .nullify:
            for loser in losers {
                var fix = RepairFix(code: finding.code, action: .releaseSlot, entity: finding.entity, globalIDs: [loser],
                                    description: "empty \(entity).\(finding.property ?? "?") of \(loser): \(finding.target ?? "its target") does not point back at it (policy nullify)")
                fix.property = finding.property
                fix.target = finding.target
                fixes.append(fix)
            }
        case .delete:
            for loser in losers where deleted.insert(loser).inserted {
                fixes.append(RepairFix(code: finding.code, action: .deleteRecord, entity: finding.entity, globalIDs: [loser],
                                       description: "delete \(entity) \(loser): \(finding.message) (policy delete)"))
            }
        case .keep:
            leftovers.append(keptByPolicy(finding, globalIDs: losers))
        }
    }

    /// An invalid record: deleted under the `delete` policy, otherwise kept and reported (there is
    /// no relationship to empty for a value or a missing relationship).
    func planInvalidRecord(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover], deleted: inout Set<String>) {
        let entity = finding.entity ?? ""
        switch model.facts(of: entity).invalidRecordPolicy {
        case .delete:
            for id in finding.globalIDs where deleted.insert(id).inserted {
                fixes.append(RepairFix(code: finding.code, action: .deleteRecord, entity: finding.entity, globalIDs: [id],
                                       description: "delete \(entity) \(id): \(finding.message) (policy delete)"))
            }
        case .nullify:
            leftovers.append(RepairLeftover(
                code: finding.code, entity: finding.entity, globalIDs: finding.globalIDs,
                reason: "\(entity)'s policy is nullify, which empties relationships; this finding is about \(finding.property ?? "a value") and there is nothing to empty",
                hint: finding.hint))
        case .keep:
            leftovers.append(keptByPolicy(finding, globalIDs: finding.globalIDs))
        }
    }

    private func keptByPolicy(_ finding: CheckFinding, globalIDs: [String]) -> RepairLeftover {
        RepairLeftover(code: finding.code, entity: finding.entity, globalIDs: globalIDs,
                       reason: "\(finding.entity ?? "the entity")'s storekeep.invalidRecordPolicy is keep: the record is reported, never changed",
                       hint: "\(finding.hint); or set the entity's policy to delete or nullify in the model")
    }
}
