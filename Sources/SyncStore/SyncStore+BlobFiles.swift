import Foundation
import ObjectModel

extension SyncStore {
    /// Starts writing the blob files of `records`' large binary values on the store's blob queue
    /// (``BulkLoad/startWritingBlobFiles(of:)``); returns at once.
    func startWritingBlobFiles(of records: [ImportRecord]) -> PreparedBlobFiles {
        let prepared = PreparedBlobFiles(recordCount: records.count)
        blobs.writeQueue.async { [self] in
            let result = Result { () throws(StoreError) in try writeBlobFiles(of: records) }
            prepared.finishWriting(result)
            if case .success(let references) = result, !references.isEmpty { blobs.flushFileSystem() }
            prepared.finishSyncing()
        }
        return prepared
    }

    /// Writes (not yet durably) the blob file of each large value of `records`, by
    /// ``PreparedBlobFiles/key(record:column:)``.
    private func writeBlobFiles(of records: [ImportRecord]) throws(StoreError) -> [Int: String] {
        var references: [Int: String] = [:]
        var lastPlan: EntityPlan?
        for (recordPosition, record) in records.enumerated() {
            let plan = lastPlan?.entity == record.entity ? lastPlan : plans[record.entity]
            lastPlan = plan
            guard let plan, plan.hasExternalStorage else { continue }
            for (position, column) in plan.columns.enumerated() where column.allowsExternalStorage {
                // The value the writer binds: the record's, else the model's default.
                let given = record.values.value(named: column.name, nameIsASCII: column.nameIsASCII) ?? column.defaultValue
                guard case .binary(let data)? = given, data.count > Self.externalStorageThreshold else { continue }
                references[PreparedBlobFiles.key(record: recordPosition, column: position)] =
                    try blobReference(writing: data, durable: false, entity: record.entity, column: column.name)
            }
        }
        return references
    }

    /// `sha256:<hex>` of `data`, written to its blob file unless it exists (``BlobStore/write(_:durable:)``).
    func blobReference(writing data: Data, durable: Bool, entity: String, column: String) throws(StoreError) -> String {
        do {
            return BlobStore.referencePrefix + (try blobs.write(data, durable: durable))
        } catch {
            throw StoreError.externalValue(error, path: path, entity: entity, attribute: column, folder: blobs.directory.path)
        }
    }
}
