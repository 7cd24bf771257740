import Foundation
import ObjectModel

/// A store's files held still for a copy (``SyncStore/withFileSnapshot(_:)``): its database file,
/// which holds every committed transaction and does not change while the snapshot lasts, the blob
/// files its records refer to, and what its content covers.
public struct StoreFileSnapshot: Sendable {
    /// The database file.
    public let databasePath: String
    /// Its size in bytes.
    public let databaseBytes: Int64
    /// The blob files the records refer to, by digest.
    public let blobs: [BlobFile]
    /// What the content covers: this peer's last transaction and what it imported of the others.
    public let coverage: BaselineCoverage
    /// The live records, the membership clocks and the tombstones the database holds.
    public let records: Int
    public let memberships: Int
    public let tombstones: Int
}
