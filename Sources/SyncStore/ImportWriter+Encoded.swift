import Foundation
import GRDB
import GRDBSQLite
import ObjectModel

/// What ``ImportWriter/writeEncoded(entity:globalID:seed:payload:)`` did.
enum EncodedInsertOutcome {
    /// The record was written; its memberships are left for the caller, by relationship.
    case inserted(memberships: [(String, [MembershipChange])])
    /// A record with that global ID exists: nothing was written.
    case exists
    /// The entity cannot take this path (more than 64 properties): decode the payload and write it the general way.
    case needsDecoding
}

extension ImportWriter {
    /// Inserts one imported record straight from its encoded insert payload (the import's fast
    /// path: no record value is built). Attributes the payload leaves out take the model's default.
    ///
    /// - Throws: ``StoreError``; `WireError` for a malformed payload.
    func writeEncoded(entity: String, globalID: GlobalID, seed: SeedMark?, payload: [UInt8]) throws -> EncodedInsertOutcome {
        guard let plan = plan(of: entity), let schema = store.syncSchemas[entity], let ledger = runs else {
            throw StoreError(.invalidRequest, path: store.path, message: "cannot import \(globalID): there is no entity named '\(entity)'")
        }
        let encoded: EncodedInsertPlan
        if let known = encodedPlans[entity] {
            encoded = known
        } else {
            encoded = EncodedInsertPlan(plan: plan, schema: schema)
            encodedPlans[entity] = encoded
        }
        guard encoded.fits else { return .needsDecoding }
        let statement = try insertStatement(plan)
        statement.reset()
        statement.bind(1, globalID.rawValue)
        statement.bind(2, entity)
        statement.bind(3, now.timeIntervalSince1970)
        if let seed {
            statement.bind(4, seed.set)
            statement.bind(5, Int64(seed.version))
        }
        var mask: UInt64 = 0
        var memberships: [(String, [MembershipChange])] = []
        let columns = plan.columns
        try payload.withUnsafeBytes { bytes in
            var reader = WireReader(bytes)
            _ = try reader.byte()
            let count = try reader.count(limit: encoded.slots.count)
            for _ in 0..<count {
                let start = reader.offset
                let position = try reader.count(limit: encoded.slots.count)
                guard position < encoded.slots.count, let slot = encoded.slots[position] else {
                    throw WireError(offset: start, problem: "property number \(position) does not exist in entity \(entity)")
                }
                let tagOffset = reader.offset
                let tagByte = try reader.byte()
                guard let tag = ChangePayload.Tag(rawValue: tagByte) else { throw WireError(offset: tagOffset, problem: "unknown value tag \(tagByte)") }
                switch slot {
                case .attribute(let column, let parameter, let bit):
                    let value = try ChangePayload.readValue(tag: tag, at: tagOffset, from: &reader)
                    try bind(value, column: columns[column], entity: entity, at: parameter, in: statement, blobKey: nil)
                    mask |= bit
                case .toOne(let parameter, let orderParameter, let bit):
                    switch tag {
                    case .null: statement.bindNull(parameter)
                    case .reference: statement.bind(parameter, try reader.text())
                    case .orderedReference:
                        statement.bind(parameter, try reader.text())
                        let order = try reader.signed()
                        if let orderParameter { statement.bind(orderParameter, order) }
                    default: throw WireError(offset: tagOffset, problem: "tag \(tagByte) is not a reference")
                    }
                    mask |= bit
                case .toMany(let name, let bit):
                    guard tag == .membership else { throw WireError(offset: tagOffset, problem: "tag \(tagByte) is not a membership list") }
                    var changes: [MembershipChange] = []
                    for _ in 0..<(try reader.count(limit: reader.remaining)) {
                        let op = try reader.byte()
                        let member = GlobalID(try reader.text())
                        let order = op & ChangePayload.opHasOrder != 0 ? try reader.signed() : nil
                        let inverse = op & ChangePayload.opHasInverseOrder != 0 ? try reader.signed() : nil
                        changes.append(MembershipChange(member: member, added: op & ChangePayload.opAdded != 0, order: order, inverseOrder: inverse))
                    }
                    memberships.append((name, changes))
                    mask |= bit
                }
            }
            guard reader.isAtEnd else { throw WireError(offset: reader.offset, problem: "\(reader.remaining) bytes after the last property") }
        }
        // Attributes the payload left out take the model's default, as any import's.
        let columnBits = plan.columnBits
        for position in columns.indices where mask & columnBits[position] == 0 {
            if let value = columns[position].defaultValue {
                try bind(value, column: columns[position], entity: entity, at: Int32(7 + position), in: statement, blobKey: nil)
            }
        }
        let run = runForMask(mask, plan: plan, ledger: ledger, entity: entity)
        statement.bind(6, ledger.id(ofRun: run))
        let code = statement.execute()
        guard code == SQLITE_DONE else {
            if sqlite3_extended_errcode(db.sqliteConnection) == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ { return .exists }
            throw StoreError.wrapping(DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection))),
                                      path: store.path, action: "write \(globalID)")
        }
        ledger.add(rowID: sqlite3_last_insert_rowid(db.sqliteConnection), toRun: run)
        return .inserted(memberships: memberships)
    }

    /// The run of records of `plan`'s entity setting the properties of `mask`.
    private func runForMask(_ mask: UInt64, plan: EntityPlan, ledger: InsertRunLedger, entity: String) -> Int {
        for known in runOfMask where known.plan === plan && known.mask == mask { return known.run }
        let run = ledger.run(entity: entity, properties: plan.propertiesJSON(mask: mask))
        runOfMask.append((plan, mask, run))
        return run
    }
}
