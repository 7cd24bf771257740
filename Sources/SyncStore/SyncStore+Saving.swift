import Foundation
import GRDB

extension SyncStore {
    /// Binary values larger than this many bytes go to blob files, where the model allows external storage.
    public static let externalStorageThreshold = 4096

    /// Runs `changes` in one SQLite transaction and records it as one history transaction.
    ///
    /// Either everything `changes` did is committed, with its history, or nothing is (when it
    /// throws). A save that changes nothing records no transaction.
    ///
    /// - Parameters:
    ///   - author: who makes the change (an app name, `storekeep.repair`, …), kept in the history.
    ///   - changes: the work, given a ``StoreTransaction``.
    /// - Returns: what `changes` returned.
    /// - Throws: ``StoreError``.
    @discardableResult
    public func save<Result>(author: String, _ changes: (StoreTransaction) throws -> Result) throws -> Result {
        guard !isReadOnly else {
            throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only")
        }
        if let configuration = metadata.seedConfiguration {
            throw StoreError(.invalidRequest, path: path, message: "is the seed store of configuration \(configuration): read-only seed data, never written by a save",
                             hint: "change seed data by building a new seed store (`storekeep seed-store build`)")
        }
        do {
            return try database.write { db in
                let transaction = StoreTransaction(db: db, store: self, now: Date())
                let result = try changes(transaction)
                _ = try transaction.recordHistory(author: author)
                return result
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "save changes")
        }
    }
}
