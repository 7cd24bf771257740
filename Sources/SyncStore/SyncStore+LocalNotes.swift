import Foundation
import GRDB

extension SyncStore {
    /// The prefix of the `sk_metadata` keys that hold local notes (``localNote(_:)``).
    static let localNotePrefix = "note."

    /// A note a caller keeps in the store about the store's surroundings (what `sync` found sound
    /// in the container, say), or `nil` when there is none or it is not text. A note is not
    /// content: not in a log nor a digest, never merged into another store (a snapshot baseline
    /// copies the database file, notes included, but a peer that imports it reads only its
    /// records), and nothing but its writer reads it; a lost or damaged note must only cost its
    /// writer work done again.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func localNote(_ name: String) throws -> String? {
        try read("read a local note") { db in
            let row = try Row.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = ?", arguments: [Self.localNotePrefix + name])
            return row?.stored("value", as: String.self)
        }
    }

    /// Keeps `value` as the local note `name` (``localNote(_:)``); `nil` removes it.
    ///
    /// - Throws: ``StoreError`` `invalidRequest` for a store opened read-only; when the store
    ///   cannot be written.
    public func setLocalNote(_ name: String, to value: String?) throws {
        guard !isReadOnly else { throw StoreError(.invalidRequest, path: path, message: "the store was opened read-only") }
        do {
            try database.write { db in
                if let value {
                    try db.execute(sql: "INSERT INTO sk_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                   arguments: [Self.localNotePrefix + name, value])
                } else {
                    try db.execute(sql: "DELETE FROM sk_metadata WHERE key = ?", arguments: [Self.localNotePrefix + name])
                }
            }
        } catch where StoreError.comesFromTheStore(error) {
            throw StoreError.wrapping(error, path: path, action: "keep a local note")
        }
    }
}
