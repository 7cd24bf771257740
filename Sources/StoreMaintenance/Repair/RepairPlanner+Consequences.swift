import Foundation
import ObjectModel
import SyncStore

extension RepairPlanner {
    /// Rehearses `plan` on the store in the order a run applies it, and returns the plan a run
    /// carries out: fixes a save would refuse become leftovers (a deletion a Deny rule blocks, a
    /// merge that cannot be made), fixes with nothing left to do are dropped, and what the fixes
    /// cause is planned for too: a record left without a required relationship, or with too few or
    /// too many members (its entity's policy decides), and the external files of deleted records.
    ///
    /// A dry run and a real run both plan this way, so the dry run prints what the real run does.
    ///
    /// - Parameters:
    ///   - findings: every finding of the check (codes outside `--only` included).
    ///   - blobFile: the path of the external file with a given digest.
    func completing(_ plan: RepairPlan, findings: [CheckFinding], rehearsal: SaveRehearsal,
                    blobFile: (String) -> String) throws -> RepairPlan {
        var leftovers = plan.leftovers
        var ignored = plan.ignored
        let databaseFixes = plan.fixes.filter { ![.takeOverStaleLock, .removeOrphanedFile].contains($0.action) }
        // The findings already planned for, of the codes a fix can cause (the only ones looked up).
        var known = Set<FindingKey>()
        for finding in findings where [.recordRequiredRelationship, .recordRelationshipCount].contains(finding.code) {
            for id in finding.globalIDs { known.insert(FindingKey(code: finding.code, id: id, property: finding.property)) }
        }
        var deleted = Set(databaseFixes.filter { $0.action == .deleteRecord }.flatMap(\.globalIDs))
        var done: [RepairFix] = []
        var queue = databaseFixes
        var next = 0
        var evaluated = 0
        while true {
            while next < queue.count {
                let start = next
                if queue[start].action == .nullifyReference {
                    // A run of references of one relationship is emptied at once, here and in the run.
                    while next < queue.count, Self.sameReferenceGroup(queue[start], queue[next]) { next += 1 }
                    done += try rehearseNullifications(Array(queue[start..<next]), rehearsal)
                } else {
                    next += 1
                    if let fix = try rehearse(queue[start], rehearsal, leftovers: &leftovers) { done.append(fix) }
                }
            }
            let touches = rehearsal.touches[evaluated...]
            evaluated = rehearsal.touches.count
            var caused: [RepairFix] = []
            try causedFindings(touches, rehearsal: rehearsal, known: &known) { finding in
                if let only, !only.contains(finding.code) {
                    ignored += 1
                } else {
                    planInvalidRecord(finding, fixes: &caused, leftovers: &leftovers, deleted: &deleted)
                }
            }
            guard !caused.isEmpty else { break }
            queue += caused
        }
        var fileFixes = plan.fixes.filter { $0.action == .removeOrphanedFile }
        let planned = Set(fileFixes.compactMap(\.blobHash))
        for digest in try rehearsal.releasedBlobDigests() where !planned.contains(digest) {
            let file = blobFile(digest)
            guard let modified = fileModified(file) else { continue }
            if let only, !only.contains(.blobOrphaned) {
                ignored += 1
            } else if modified < orphanCutoff {
                var fix = RepairFix(code: .blobOrphaned, action: .removeOrphanedFile,
                                    description: "remove \(file): the records this repair deletes were the last to refer to it")
                fix.blobHash = digest
                fix.file = file
                fileFixes.append(fix)
            } else {
                leftovers.append(youngFile(file, code: .blobOrphaned, modified: modified))
            }
        }
        let lockFixes = plan.fixes.filter { $0.action == .takeOverStaleLock }
        return RepairPlan(fixes: lockFixes + done + fileFixes, leftovers: leftovers, ignored: ignored)
    }

    /// Whether two fixes belong to one run of references emptied together: same action, entity and relationship.
    static func sameReferenceGroup(_ first: RepairFix, _ other: RepairFix) -> Bool {
        other.action == .nullifyReference && other.entity == first.entity && other.property == first.property
    }

    /// A finding about one record: its code, the record and the property (texts shared with the finding).
    struct FindingKey: Hashable {
        var code: CheckCode
        var id: String
        var property: String?
    }

    /// Rehearses a run of ``RepairAction/nullifyReference`` fixes of one relationship; returns those that change something.
    private func rehearseNullifications(_ group: [RepairFix], _ rehearsal: SaveRehearsal) throws -> [RepairFix] {
        guard let entity = group.first?.entity, let property = group.first?.property else { return [] }
        let cleared = Set(try rehearsal.clearInvalidReferences(property, ofRecordsOf: entity, group.flatMap(\.globalIDs).map(GlobalID.init)))
        return group.filter { fix in fix.globalIDs.contains { cleared.contains(GlobalID($0)) } }
    }

    /// Rehearses one fix; returns it as the run applies it, or `nil` when it has nothing to do or
    /// a save would refuse it (then a leftover says why).
    private func rehearse(_ fix: RepairFix, _ rehearsal: SaveRehearsal, leftovers: inout [RepairLeftover]) throws -> RepairFix? {
        switch fix.action {
        case .releaseSlot:
            var released: [String] = []
            for id in fix.globalIDs {
                guard try rehearsal.entity(of: GlobalID(id)) != nil else {
                    // A row whose global ID cannot be read (written around storekeep): nothing can name it.
                    leftovers.append(RepairLeftover(code: fix.code, entity: fix.entity, globalIDs: [id],
                                                    reason: "the record '\(id)' cannot be found by its global ID (its row is damaged), so repair cannot change it",
                                                    hint: "restore the store from a backup"))
                    continue
                }
                if try rehearsal.releaseUnreturnedReference(fix.property ?? "", of: GlobalID(id)) { released.append(id) }
            }
            guard !released.isEmpty else { return nil }
            var result = fix
            result.globalIDs = released
            return result
        case .removeJoinRow:
            guard let table = fix.table, let owner = fix.owner, let target = fix.target,
                  try rehearsal.removeJoinRow(in: table, owner: GlobalID(owner), target: GlobalID(target)) else { return nil }
            return fix
        case .mergeDuplicates:
            guard let keeper = fix.keeper else { return nil }
            var merged: [String] = []
            var alsoDeleted: [GlobalID] = []
            for duplicate in fix.removed ?? [] {
                switch try rehearsal.merge(GlobalID(duplicate), into: GlobalID(keeper)) {
                case .done(let gone):
                    merged.append(duplicate)
                    alsoDeleted += gone.dropFirst()
                case .refused(let reason):
                    leftovers.append(RepairLeftover(
                        code: fix.code, entity: fix.entity, globalIDs: [duplicate],
                        reason: "\(duplicate) cannot be merged into \(keeper): \(reason)",
                        hint: "unlink what holds it in the app (or restore the record it names), then run `storekeep repair` again"))
                }
            }
            guard !merged.isEmpty else { return nil }
            var result = fix
            result.removed = merged
            result.globalIDs = ([keeper] + merged).sorted()
            result.description = mergeDescription(code: fix.code, entity: fix.entity, keeper: keeper, removed: merged)
                + Self.cascadeNote(alsoDeleted)
            return result
        case .deleteRecord:
            var result = fix
            var alsoDeleted: [GlobalID] = []
            for id in fix.globalIDs {
                guard !rehearsal.deleted.contains(GlobalID(id)) else {
                    result.globalIDs.removeAll { $0 == id }   // an earlier fix's deletion takes it
                    continue
                }
                switch try rehearsal.delete(GlobalID(id)) {
                case .done(let gone):
                    alsoDeleted += gone.dropFirst()
                case .refused(let reason):
                    result.globalIDs.removeAll { $0 == id }
                    leftovers.append(RepairLeftover(
                        code: fix.code, entity: fix.entity, globalIDs: [id],
                        reason: "not deleted (\(fix.description)): \(reason)",
                        hint: "unlink the records that block it in the app, then run `storekeep repair` again"))
                }
            }
            guard !result.globalIDs.isEmpty else { return nil }
            result.description += Self.cascadeNote(alsoDeleted)
            return result
        case .nullifyReference, .removeOrphanedFile, .takeOverStaleLock, .realignSyncCounters:
            return fix
        }
    }

    /// "; its deletion rules also delete …" for records a deletion takes with it.
    private static func cascadeNote(_ ids: [GlobalID]) -> String {
        guard !ids.isEmpty else { return "" }
        let shown = ids.prefix(5).map(\.rawValue).joined(separator: ", ")
        return "; deletion rules also delete \(ids.count) record\(ids.count == 1 ? "" : "s") (\(shown)\(ids.count > 5 ? ", …" : ""))"
    }

    /// The record findings `check` would make, after the rehearsed changes, about the relationships
    /// changed since the last look: a required relationship left empty, a to-many relationship with
    /// too few or too many members (the rules of ``RecordRuleBuilder`` and ``RelationshipCountDetector``).
    ///
    /// Each is handed to `handle` as it is found (a million of them are not gathered first).
    private func causedFindings(_ touches: ArraySlice<RelationshipSlot>, rehearsal: SaveRehearsal, known: inout Set<FindingKey>,
                                handle: (CheckFinding) -> Void) throws {
        var seen = Set<RelationshipSlot>()
        // Whether a relationship has a rule at all, asked once per entity and relationship (most have none).
        var ruled: [String: RelationshipDescription?] = [:]
        for slot in touches where seen.insert(slot).inserted && !rehearsal.deleted.contains(slot.record) {
            let key = "\(slot.entity)\u{1F}\(slot.relationship)"
            if ruled[key] == nil {
                ruled[key] = .some(model.relationship(slot.relationship, of: slot.entity).flatMap { relationship in
                    relationship.isTransient || (relationship.isOptional && relationship.minCount == 0 && relationship.maxCount == 0)
                        || (!relationship.isToMany && relationship.isOptional) ? nil : relationship
                })
            }
            guard let relationship = ruled[key] ?? nil else { continue }
            let least = relationship.isToMany ? (relationship.isOptional ? 0 : max(1, relationship.minCount)) : (relationship.isOptional ? 0 : 1)
            let most = relationship.isToMany ? relationship.maxCount : 0
            let optionalMinimum = relationship.isToMany && relationship.isOptional ? relationship.minCount : 0
            guard least > 0 || most > 0 || optionalMinimum > 0 else { continue }
            let count = try rehearsal.members(of: relationship.name, of: slot.record).count
            let tooFew = count < least || (optionalMinimum > 0 && count > 0 && count < optionalMinimum)
            guard tooFew || (most > 0 && count > most) else { continue }
            let code: CheckCode = count == 0 ? .recordRequiredRelationship : .recordRelationshipCount
            let id = slot.record.rawValue
            guard known.insert(FindingKey(code: code, id: id, property: relationship.name)).inserted else { continue }
            let what = count == 0
                ? "has no \(relationship.name) (a required relationship to \(relationship.destination))"
                : "has \(count) \(relationship.name), outside the allowed count \(relationship.minCount)…\(most > 0 ? String(most) : "∞")"
            var finding = CheckFinding(
                code: code, entity: slot.entity, globalIDs: [id],
                message: "\(slot.entity) \(id) \(what) once the fixes before it are applied",
                hint: InvalidRecordHint.text(for: model.facts(of: slot.entity).invalidRecordPolicy))
            finding.property = relationship.name
            finding.count = count
            handle(finding)
        }
    }
}
