import ObjectModel

/// The changes of one open transaction, merged per record in the order records were first touched.
struct PendingChanges {
    private var order: [GlobalID] = []
    /// The records in `order`, for a constant-time membership test (a repair touches a million records).
    private var remembered = Set<GlobalID>()
    private var changes: [GlobalID: HistoryChange] = [:]
    /// The join-table memberships touched, by the record on whose side they were changed, then by
    /// relationship: their final state is read when the history is written.
    private(set) var touchedMemberships: [GlobalID: [String: Set<GlobalID>]] = [:]

    /// Whether nothing has changed.
    var isEmpty: Bool { order.allSatisfy { changes[$0] == nil } }

    /// Whether `id` was inserted in this transaction.
    func wasInserted(_ id: GlobalID) -> Bool { changes[id]?.kind == .insert }

    /// Whether `id` was deleted in this transaction.
    func wasDeleted(_ id: GlobalID) -> Bool { changes[id]?.kind == .delete }

    /// Notes an insert.
    mutating func inserted(_ id: GlobalID, entity: String, properties: some Sequence<String>) {
        remember(id)
        changes[id] = HistoryChange(entity: entity, globalID: id, kind: .insert, properties: Array(Set(properties)).sorted())
    }

    /// Notes an update of `properties`; folded into an earlier insert or update of the same record.
    mutating func updated(_ id: GlobalID, entity: String, properties: some Sequence<String>) {
        remember(id)
        if var change = changes[id] {
            guard change.kind != .delete else { return }
            change.properties = Array(Set(change.properties).union(properties)).sorted()
            changes[id] = change
        } else {
            changes[id] = HistoryChange(entity: entity, globalID: id, kind: .update, properties: Array(Set(properties)).sorted())
        }
    }

    /// Notes a delete; a record inserted and deleted in the same transaction leaves no change at all.
    mutating func deleted(_ id: GlobalID, entity: String, tombstone: [String: AttributeValue]) {
        remember(id)
        if changes[id]?.kind == .insert {
            changes[id] = nil
            return
        }
        changes[id] = HistoryChange(entity: entity, globalID: id, kind: .delete, properties: [], tombstone: tombstone)
    }

    /// Notes that the membership of `member` in the to-many relationship `relationship` of
    /// `source` (kept in a join table) may have changed.
    mutating func touchedMembership(of member: GlobalID, in relationship: String, of source: GlobalID) {
        touchedMemberships[source, default: [:]][relationship, default: []].insert(member)
    }

    /// The changes in the order their records were first touched.
    var ordered: [HistoryChange] { order.compactMap { changes[$0] } }

    private mutating func remember(_ id: GlobalID) {
        if remembered.insert(id).inserted { order.append(id) }
    }
}
