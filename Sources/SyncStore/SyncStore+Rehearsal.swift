import Foundation

extension SyncStore {
    /// Runs `body` with a ``SaveRehearsal`` of this store: changes worked out, nothing written.
    ///
    /// The store is read in one read transaction, so the rehearsal sees one consistent state; it
    /// works on a store opened read-only.
    ///
    /// - Throws: what `body` throws; ``StoreError`` when the store cannot be read.
    public func rehearse<T>(_ body: (SaveRehearsal) throws -> T) throws -> T {
        try read("work out the changes") { db in
            try body(SaveRehearsal(reader: StoreTransaction(db: db, store: self, now: Date())))
        }
    }
}
