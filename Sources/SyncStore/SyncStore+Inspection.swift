import Foundation
import GRDB

extension SyncStore {
    /// Runs `body` with a ``StoreTransaction`` inside one read transaction: everything it reads
    /// comes from one consistent state, and nothing can be written (a write throws). Works on a
    /// store opened read-only, so a plan (`--dry-run`) never changes the file, not even to upgrade
    /// its format.
    ///
    /// ```swift
    /// let found = try store.inspect { tx in try tx.records(of: "SpeechType", matching: ["name": .string("Toast")]) }
    /// ```
    ///
    /// - Throws: ``StoreError``, or what `body` throws.
    public func inspect<Result>(_ body: (StoreTransaction) throws -> Result) throws -> Result {
        do {
            return try database.read { db in try body(StoreTransaction(db: db, store: self, now: Date())) }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, action: "read the store")
        }
    }
}
