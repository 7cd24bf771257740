import Foundation
import ObjectModel

extension SyncStore {
    /// Starts writing the blob files of `records`' large binary values on the store's blob queue
    /// (``BulkLoad/startWritingBlobFiles(of:)``); returns at once.
    func startWritingBlobFiles(of records: [ImportRecord]) -> PreparedBlobFiles {
        let prepared = PreparedBlobFiles(recordCount: records.count)
        blobs.writeQueue.async { [self] in
            let batch = DurableFileBatch()
            let result = Result { () throws(StoreError) in try writeBlobFiles(of: records, into: batch) }
            prepared.finishWriting(result)
            // The references go to the batch's rows now; the rows commit once the files are durable.
            guard case .success = result else { return prepared.finishSyncing(.success(())) }
            prepared.finishSyncing(Result { () throws(StoreError) in try finishBlobFiles(batch) })
        }
        return prepared
    }

    /// Writes into `batch` the blob file of each large value of `records`, by
    /// ``PreparedBlobFiles/key(record:column:)``.
    private func writeBlobFiles(of records: [ImportRecord], into batch: DurableFileBatch) throws(StoreError) -> [Int: String] {
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
                    try blobReference(writing: data, into: batch, entity: record.entity, column: column.name)
            }
        }
        return references
    }

    /// Makes every blob file of `batch` durable under its name: what a writer does just before it
    /// commits the rows that refer to them.
    ///
    /// - Throws: ``StoreError`` `io`, saying so when the disk is full.
    func finishBlobFiles(_ batch: DurableFileBatch) throws(StoreError) {
        do {
            try batch.finish()
        } catch {
            let folder = blobs.directory.path
            guard (error as? DurableFile.Failure)?.isDiskFull == true else {
                throw StoreError(.io, path: path, message: "cannot make the blob files in \(folder) durable: \(error)",
                                 hint: "check the disk and the permissions of \(folder), then run the same command again")
            }
            throw StoreError(.io, path: path, message: "cannot make the blob files in \(folder) durable: the disk is full (\(error))",
                             hint: "free some space and run the same command again")
        }
    }

    /// `sha256:<hex>` of `data`, written to its blob file unless it exists (``BlobStore/write(_:digest:into:)``):
    /// durably before this returns, or into `batch`, durable once the batch is finished. `digest`
    /// is `data`'s SHA-256 when the caller has it already.
    func blobReference(writing data: Data, digest: String? = nil, into batch: DurableFileBatch? = nil,
                       entity: String, column: String) throws(StoreError) -> String {
        do {
            return BlobStore.referencePrefix + (try blobs.write(data, digest: digest ?? SHA256.hexDigest(of: data), into: batch))
        } catch {
            throw StoreError.externalValue(error, path: path, entity: entity, attribute: column, folder: blobs.directory.path)
        }
    }
}
