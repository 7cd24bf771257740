import Foundation
import GRDB

extension StoreInspection {
    /// The folder that holds the store's external binary values.
    public var blobFolder: URL { blobDirectory }

    /// The file that holds the external value whose content address is `digest`.
    public func blobFile(forDigest digest: String) -> String {
        BlobStore.fileURL(forDigest: digest, in: blobFolder).path
    }

    /// Hands over every text value of the binary attribute `property` in records of `holders`: an
    /// external value's reference, well formed or not (a binary column holds bytes inline, or text
    /// naming a file in ``blobFolder``).
    public func forEachBlobReference(in property: StoredProperty, holders: [String], _ body: (BlobReference) throws -> Void) throws {
        let c = InspectionSQL.identifier(property.column)
        try reading {
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT _gid, _entity, \(c) AS value FROM \(InspectionSQL.identifier(property.table))
                WHERE _entity IN \(InspectionSQL.list(holders)) AND typeof(\(c)) = 'text'
                """)
            while let row = try cursor.next() {
                let text = row.stored("value", as: String.self) ?? ""
                try body(BlobReference(globalID: row.stored("_gid", as: String.self) ?? "", entity: row.stored("_entity", as: String.self) ?? "",
                                       text: text, digest: BlobStore.digest(inReference: text)))
            }
        }
    }
}
