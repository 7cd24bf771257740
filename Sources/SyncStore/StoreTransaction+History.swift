import Foundation
import GRDB
import ObjectModel

extension StoreTransaction {
    /// Writes the transaction and its changes to the history; does nothing when nothing changed.
    ///
    /// Besides the change rows, this records what sync needs (`docs/format.md`, format 4): each
    /// change's payload (the values it set, read from the rows as the transaction leaves them), the
    /// clock of every property an update set (`sk_clock`) and of every membership it changed
    /// (`sk_member_clock`), the insert clock of every record inserted, and a tombstone for every
    /// record deleted.
    ///
    /// - Returns: the transaction's sequence number, or `nil` when nothing changed.
    func recordHistory(author: String) throws -> Int64? {
        let changes = pending.ordered
        guard !changes.isEmpty else { return nil }
        let peer = store.metadata.peerID
        let row = try HistoryCounters.beginLocalTransaction(peer: peer, author: author, now: now, in: db, path: store.path)
        let clocks = ClockStore(store: store, db: db)
        let updateClock = PropertyClock(rank: .update, timestamp: row.clock, peer: peer)
        let insertClock = PropertyClock(rank: .insert, timestamp: row.clock, peer: peer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // JSON has no infinity, which a Double attribute may hold: it is written as a string.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let insert = try db.cachedStatement(sql: """
            INSERT INTO sk_change (tx, entity, gid, kind, properties, tombstone, payload) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        // Most changes of a large save name the same few property lists: each is encoded once.
        var encoded: [[String]: String] = [:]
        for change in changes {
            let properties = try encoded[change.properties] ?? String(decoding: try encoder.encode(change.properties), as: UTF8.self)
            encoded[change.properties] = properties
            let tombstone = try change.tombstone.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            var payload: Data?
            switch change.kind {
            case .insert, .update:
                payload = try self.payload(of: change, clocks: clocks, clock: change.kind == .insert ? insertClock : updateClock)
            case .delete:
                payload = try tombstonePayload(of: change)
                try clocks.recordDelete(of: change.globalID, entity: change.entity, clock: updateClock, identity: tombstone)
            }
            try insert.execute(arguments: [row.id, change.entity, change.globalID.rawValue, change.kind.rawValue, properties, tombstone, payload])
        }
        return row.sequence
    }

    /// The payload of an insert or update: the values of the properties it names, as the row holds
    /// them now; records the clock of each property (an update) or of the record (an insert).
    private func payload(of change: HistoryChange, clocks: ClockStore, clock: PropertyClock) throws -> Data? {
        guard let schema = store.syncSchemas[change.entity],
              let row = try Row.fetchOne(db, sql: "SELECT * FROM \(schema.table.quotedSQLIdentifier) WHERE _gid = ?",
                                         arguments: [change.globalID.rawValue]) else { return nil }
        let rank = clock.rank
        var body = WireWriter()
        var flags: UInt8 = 0
        var count = 0
        let touched = pending.touchedMemberships[change.globalID] ?? [:]
        // An insert writes every attribute and to-one relationship (an absent one as empty), so that
        // its clock is the clock of each of them on every peer; to-many relationships list the
        // members it set.
        let names = rank == .insert ? schema.insertedPropertyNames(touchedToMany: Set(touched.keys)) : change.properties
        for name in names {
            guard let position = schema.position(of: name), let property = schema.property(at: position) else { continue }
            switch property.storage {
            case .attribute(let column, let type, _):
                let stored: DatabaseValue = row[column] ?? .null
                body.count(position)
                if type.isBinary, case .string(let text) = stored.storage, text.hasPrefix(BlobStore.referencePrefix),
                   ChangePayload.writeBlobReference(hex: String(text.dropFirst(BlobStore.referencePrefix.count)), to: &body) {
                    flags |= ChangePayload.hasBlobReferences
                } else {
                    ChangePayload.write(ValueCoder.attributeValue(stored, for: type), to: &body)
                }
            case .toOne(let column, let orderColumn):
                let place = "record \(change.globalID)"
                let target = try row.optional(column, as: String.self, table: schema.table, row: place, store: store.path)
                let order = try orderColumn.flatMap { try row.optional($0, as: Int64.self, table: schema.table, row: place, store: store.path) }
                body.count(position)
                ChangePayload.writeReference(target.map(GlobalID.init), order: order, to: &body)
            case .toMany(let table, let sourceColumn, let targetColumn, let sourceOrder, let targetOrder):
                let members = (touched[name] ?? []).sorted()
                guard !members.isEmpty else { continue }
                var memberships: [MembershipChange] = []
                for member in members {
                    let state = try Row.fetchOne(db, sql: """
                        SELECT \(sourceOrder ?? "NULL"), \(targetOrder ?? "NULL") FROM \(table.quotedSQLIdentifier)
                        WHERE \(sourceColumn) = ? AND \(targetColumn) = ?
                        """, arguments: [change.globalID.rawValue, member.rawValue])
                    let place = "\(change.globalID) → \(member)"
                    let membership = MembershipChange(
                        member: member, added: state != nil,
                        order: try state.flatMap { try $0.optional(at: 0, as: Int64.self, table: table, row: place, store: store.path) },
                        inverseOrder: try state.flatMap { try $0.optional(at: 1, as: Int64.self, table: table, row: place, store: store.path) })
                    memberships.append(membership)
                    let (owner, target) = sourceColumn == "owner" ? (change.globalID, member) : (member, change.globalID)
                    try clocks.setMembershipClock(table: table, owner: owner, target: target, present: membership.added, to: clock)
                }
                body.count(position)
                ChangePayload.write(memberships, to: &body)
            }
            count += 1
            if rank == .update, !property.isMembership { try clocks.setClock(of: name, of: change.globalID, to: clock) }
        }
        if rank == .insert { try clocks.setInsertClock(of: change.globalID, to: clock) }
        var payload = WireWriter(capacity: body.count + 8)
        payload.byte(flags)
        payload.count(count)
        payload.raw(body.bytes)
        return Data(payload.bytes)
    }

    /// The payload of a delete: the identifying values kept in its tombstone.
    private func tombstonePayload(of change: HistoryChange) throws -> Data? {
        guard let schema = store.syncSchemas[change.entity] else { return nil }
        let identity = (change.tombstone ?? [:]).sorted { $0.key < $1.key }.map { SyncPropertyChange.attribute($0.key, $0.value) }
        do {
            return Data(try ChangePayload.encode(identity, schema: schema))
        } catch {
            return nil
        }
    }
}
