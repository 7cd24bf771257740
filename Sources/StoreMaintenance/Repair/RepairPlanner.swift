import ObjectModel

/// Turns `check` findings into a deterministic ``RepairPlan`` (the rules are in `docs/repair.md`).
///
/// Every choice depends only on the findings and on facts two peers with the same content share
/// (seed versions, creation times, global IDs, who edited a record), never on row ids or on the
/// order rows happen to be stored in.
struct RepairPlanner {
    /// The store's model (policies and singletons come from its `userInfo` facts).
    let model: ManagedModel
    /// Global IDs of records the user has edited (``SyncStore/userModifiedRecords(among:)``).
    let userModified: Set<String>
    /// For a one-to-one target and the name of its inverse relationship, the record it points back at.
    let backPointer: (_ target: String, _ inverse: String) -> String?
    /// When set, only findings of these codes are planned for.
    let only: Set<CheckCode>?

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
            if let only, !only.contains(finding.code) {
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
                var fix = RepairFix(code: finding.code, action: .removeOrphanedFile,
                                    description: "remove \(finding.file ?? finding.blobHash ?? "?"): no record refers to it")
                fix.blobHash = finding.blobHash
                fix.file = finding.file
                fixes.append(fix)
            case .syncCounterBehind, .syncWatermarkMismatch:
                guard !fixes.contains(where: { $0.action == .realignSyncCounters }) else { continue }
                fixes.append(RepairFix(code: finding.code, action: .realignSyncCounters,
                                       description: "set the sync counters to what the history holds (peer \(finding.peer ?? "?"))"))
            case .lockStale:
                var fix = RepairFix(code: finding.code, action: .takeOverStaleLock,
                                    description: "take over \(finding.file ?? "the lock file"): the process that left it no longer exists")
                fix.file = finding.file
                fixes.append(fix)
            default:
                leftovers.append(RepairLeftover(code: finding.code, entity: finding.entity, globalIDs: finding.globalIDs,
                                                reason: "repair does not fix \(finding.code.rawValue): \(finding.message)", hint: finding.hint))
            }
        }
        let ordered = fixes.enumerated().sorted { lhs, rhs in
            lhs.element.action.rank != rhs.element.action.rank ? lhs.element.action.rank < rhs.element.action.rank : lhs.offset < rhs.offset
        }.map(\.element)
        return RepairPlan(fixes: ordered, leftovers: leftovers, ignored: ignored)
    }

    /// Keeps one seed record per group: the newest seed version, ties broken by the smallest global
    /// ID, chosen among the records the user edited when there are any. Edited records are never deleted.
    private func planSeedDuplicates(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover]) {
        let records = finding.records ?? []
        let edited = records.filter { userModified.contains($0.globalID) }
        let pool = edited.isEmpty ? records : edited
        guard let keeper = pool.min(by: { ($1.seedVersion ?? 0, $0.globalID) < ($0.seedVersion ?? 0, $1.globalID) }) else { return }
        let removed = records.filter { $0.globalID != keeper.globalID && !userModified.contains($0.globalID) }.map(\.globalID).sorted()
        let keptEdited = edited.filter { $0.globalID != keeper.globalID }.map(\.globalID).sorted()
        if !removed.isEmpty {
            let why = edited.isEmpty ? "the newest seed version, then the smallest global ID" : "the user edited it"
            fixes.append(mergeFix(finding, keeper: keeper.globalID, removed: removed,
                                  description: "keep seed record \(keeper.globalID) (\(why)); move the links of \(removed.joined(separator: ", ")) to it and delete them"))
        }
        if !keptEdited.isEmpty {
            leftovers.append(RepairLeftover(
                code: finding.code, entity: finding.entity, globalIDs: [keeper.globalID] + keptEdited,
                reason: "\(keptEdited.count + 1) duplicate seed records were edited by the user; they are the user's and are never deleted",
                hint: "merge them in the app, or delete the ones the user does not need"))
        }
    }

    /// Keeps the earliest created record of a singleton entity (ties: the smallest global ID).
    private func planSingletonDuplicates(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover]) {
        let records = finding.records ?? []
        guard let keeper = records.min(by: { ($0.created, $0.globalID) < ($1.created, $1.globalID) }) else { return }
        let removed = records.map(\.globalID).filter { $0 != keeper.globalID }.sorted()
        guard !removed.isEmpty else { return }
        fixes.append(mergeFix(finding, keeper: keeper.globalID, removed: removed,
                              description: "keep \(finding.entity ?? "singleton") \(keeper.globalID) (created first); move the links of \(removed.joined(separator: ", ")) to it and delete them"))
    }

    private func mergeFix(_ finding: CheckFinding, keeper: String, removed: [String], description: String) -> RepairFix {
        var fix = RepairFix(code: finding.code, action: .mergeDuplicates, entity: finding.entity,
                            globalIDs: [keeper] + removed, description: description)
        fix.keeper = keeper
        fix.removed = removed
        return fix
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
    private func planInvalidRecord(_ finding: CheckFinding, fixes: inout [RepairFix], leftovers: inout [RepairLeftover], deleted: inout Set<String>) {
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
