import Foundation
import GRDB
import ObjectModel

extension RemoteTransactionApplier {
    /// Merges a baseline body (``BaselineEncoder``), or one part of it, into the store, without
    /// history: records it does not have are written with their insert clock, records it has merge
    /// per property with each value's own clock, membership clocks apply one member at a time,
    /// tombstones delete.
    ///
    /// - Parameter names: the names the body defined so far: empty for a whole body or its first
    ///   part, and handed from one part to the next.
    func applyBaseline(_ body: UnsafeRawBufferPointer, names: inout [String]) throws {
        var reader = WireReader(body)
        func name() throws(WireError) -> String {
            let start = reader.offset
            let index = try reader.count()
            if index == 0 {
                let text = try reader.text()
                names.append(text)
                return text
            }
            guard index <= names.count else { throw WireError(offset: start, problem: "name number \(index) is not defined yet") }
            return names[index - 1]
        }
        func clock() throws -> PropertyClock {
            let rank = PropertyClock.Rank(rawValue: Int(try reader.byte())) ?? .update
            let start = reader.offset
            // Out of range is refused, as in a log: clamping would give the clock another reading.
            guard let reading = Int64(exactly: try reader.varint()) else { throw WireError(offset: start, problem: "a clock reading is out of range") }
            return PropertyClock(rank: rank, timestamp: HybridTimestamp(rawValue: reading), peer: try name())
        }
        func optionalSigned() throws -> Int64? { try reader.byte() == 1 ? try reader.signed() : nil }
        while !reader.isAtEnd {
            let start = reader.offset
            switch try reader.byte() {
            case UInt8(ascii: "R"):
                let entity = try name()
                let id = GlobalID(try reader.text())
                var seed: SeedMark?
                if try reader.byte() == 1 {
                    let set = try name()
                    let start = reader.offset
                    guard let version = Int(exactly: try reader.varint()) else { throw WireError(offset: start, problem: "a seed set version is out of range") }
                    seed = SeedMark(set: set, version: version)
                }
                let updated: Double? = try reader.byte() == 1 ? try reader.double() : nil
                let insertClock = try clock()
                var overrides: [Int: PropertyClock] = [:]
                for _ in 0..<(try reader.count(limit: reader.remaining)) {
                    let position = try reader.count()
                    overrides[position] = try clock()
                }
                let payload = Array(try reader.slice())
                try applyBaselineRecord(entity: entity, id: id, seed: seed, updated: updated, insertClock: insertClock,
                                        overrides: overrides, payload: payload)
            case UInt8(ascii: "M"):
                let table = try name()
                let owner = GlobalID(try reader.text())
                let target = GlobalID(try reader.text())
                let present = try reader.byte() != 0
                let ownerOrder = try optionalSigned()
                let targetOrder = try optionalSigned()
                let membershipClock = try clock()
                guard store.layout.joinTables.contains(table) else { continue }
                let storage = SyncEntitySchema.Storage.toMany(table: table, sourceColumn: "owner", targetColumn: "target",
                                                              sourceOrderColumn: nil, targetOrderColumn: nil)
                if try isDeleted(owner) || isDeleted(target) { continue }
                _ = try applyMembership(MembershipChange(member: target, added: present, order: ownerOrder, inverseOrder: targetOrder),
                                        of: owner, storage: storage, clock: membershipClock)
            case UInt8(ascii: "X"):
                let entity = try name()
                let id = GlobalID(try reader.text())
                let readingStart = reader.offset
                guard let reading = Int64(exactly: try reader.varint()) else { throw WireError(offset: readingStart, problem: "a clock reading is out of range") }
                let peer = try name()
                let identity = try reader.slice()
                guard let schema = store.syncSchemas[entity] else { continue }
                var tombstone: [String: AttributeValue] = [:]
                for case .attribute(let key, let value) in try ChangePayload.decode(identity, schema: schema, blob: { _ in Data() }) {
                    tombstone[key] = value
                }
                try applyDelete(SyncChange(kind: .delete, entity: entity, globalID: id, tombstone: tombstone), schema: schema,
                                clock: PropertyClock(rank: .update, timestamp: HybridTimestamp(rawValue: reading), peer: peer),
                                historyID: nil)
            default:
                throw WireError(offset: start, problem: "a baseline item does not start with R, M or X")
            }
        }
    }

    private func applyBaselineRecord(entity: String, id: GlobalID, seed: SeedMark?, updated: Double?, insertClock: PropertyClock,
                                     overrides: [Int: PropertyClock], payload: [UInt8]) throws {
        // Both sides hold the same model (equal model hashes): an entity it does not have is damage.
        guard let schema = store.syncSchemas[entity], let plan = store.plans[entity] else {
            throw WireError(offset: 0, problem: "a record of entity '\(entity)', which the model does not have")
        }
        guard !plan.isAbstract else { return }
        if try isDeleted(id) { return }
        func clockOf(_ name: String) -> PropertyClock? { schema.position(of: name).flatMap { overrides[$0] } }
        if case .inserted(let memberships) = try writer.writeEncoded(entity: entity, globalID: id, seed: seed, payload: payload) {
            if insertClock != .origin { try clocks.setInsertClock(of: id, to: insertClock) }
            for (position, clock) in overrides {
                if let property = schema.property(at: position), !property.isMembership { try clocks.setClock(of: property.name, of: id, to: clock) }
            }
            if let updated {
                try db.cachedStatement(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET _updated = ? WHERE _gid = ?")
                    .execute(arguments: [updated, id.rawValue])
            }
            try applyMemberships(memberships, of: id, schema: schema, clock: insertClock)
            return
        }
        guard try existingEntity(of: id, table: schema.table) == entity else { return }
        let properties = try payload.withUnsafeBytes { try ChangePayload.decode($0, schema: schema) { _ in Data() } }
        _ = try merge(properties, into: id, schema: schema, clock: insertClock, clockOf: clockOf)
        if try clocks.insertClock(of: id, table: schema.table) < insertClock {
            try db.execute(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET _seed_set = ?, _seed_version = ? WHERE _gid = ?",
                           arguments: [seed?.set, seed?.version, id.rawValue])
            try clocks.setInsertClock(of: id, to: insertClock)
        }
        if let updated {
            try db.cachedStatement(sql: "UPDATE \(schema.table.quotedSQLIdentifier) SET _updated = MAX(COALESCE(_updated, 0), ?) WHERE _gid = ?")
                .execute(arguments: [updated, id.rawValue])
        }
    }
}
