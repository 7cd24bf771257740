import Foundation
import GRDB

extension Row {
    /// The clock in the columns `rank`, `hlc`, `peer` starting at column `first` (of `sk_clock` or
    /// `sk_member_clock`); NULLs read as the earliest clock.
    ///
    /// - Throws: ``StoreError`` `damaged` when a column holds a value of another kind.
    func propertyClock(at first: Int, table: String, row: @autoclosure () -> String, store: String) throws -> PropertyClock {
        let rank = try optional(at: first, as: Int.self, table: table, row: row(), store: store) ?? 0
        let hlc = try optional(at: first + 1, as: Int64.self, table: table, row: row(), store: store) ?? 0
        let peer = try optional(at: first + 2, as: String.self, table: table, row: row(), store: store) ?? ""
        return PropertyClock(rank: PropertyClock.Rank(rawValue: rank) ?? .insert, timestamp: HybridTimestamp(rawValue: hlc), peer: peer)
    }

    /// The insert clock of a history transaction row (`hlc`, `peer`, `timestamp`); before format 4
    /// the reading is made from the timestamp.
    ///
    /// - Throws: ``StoreError`` `damaged` when a column holds a value of another kind.
    func transactionClock(row: @autoclosure () -> String, store: String) throws -> PropertyClock {
        let hlc = try optional(at: 0, as: Int64.self, table: "sk_transaction", row: row(), store: store)
        let timestamp = try hlc.map(HybridTimestamp.init(rawValue:))
            ?? HybridTimestamp(date: Date(timeIntervalSince1970: optional(at: 2, as: Double.self, table: "sk_transaction", row: row(), store: store) ?? 0))
        return PropertyClock(rank: .insert, timestamp: timestamp, peer: try optional(at: 1, as: String.self, table: "sk_transaction", row: row(), store: store) ?? "")
    }
}
