import GRDBSQLite
import ObjectModel
import SyncStore

extension CoreDataCopyPlan {
    /// Checks the current row of ``readSQL`` and digests the record the copy will store from it
    /// (``BulkCopyDigester``), decoding each raw column the way `CoreDataStoreReader` does.
    ///
    /// - Returns: the bytes of the row's text and binary values, or `nil` when a value is one the
    ///   copy does not carry as the record-by-record path would (a storage class Core Data does not
    ///   write for the type, a number the type cannot hold exactly, text that is not clean UTF-8 or
    ///   not a decimal number, a binary value kept in a file or too large to stay inline, a to-one
    ///   target whose entity column names no entity of its destination): nothing is added to `sum`
    ///   then, and the row must go record by record, where it is rejected or converted.
    func digest(row: OpaquePointer, into digester: BulkCopyDigester, sum: inout RecordDigestSum) -> Int? {
        digester.beginRecord(globalIDPrefix: globalIDPrefix, number: sqlite3_column_int64(row, 0))
        var bytes = 0
        for (offset, decoding) in decodings.enumerated() {
            let column = Int32(offset + 1)
            let kind = sqlite3_column_type(row, column)
            if kind == SQLITE_NULL {
                digester.appendNull()
                continue
            }
            switch (decoding, kind) {
            case (.integer(let range), SQLITE_INTEGER):
                let value = sqlite3_column_int64(row, column)
                guard range.contains(value) else { return nil }
                digester.append(integer: value)
            case (.boolean, SQLITE_INTEGER):
                let value = sqlite3_column_int64(row, column)
                guard value == 0 || value == 1 else { return nil }
                digester.append(boolean: value == 1)
            case (.boolean, SQLITE_FLOAT):
                let value = sqlite3_column_double(row, column)
                guard value == 0 || value == 1 else { return nil }
                digester.append(boolean: value == 1)
            case (.double(let type), SQLITE_INTEGER):
                guard let value = ValueFit.exactDouble(sqlite3_column_int64(row, column)), ValueFit.problem(.double(value), as: type) == nil else { return nil }
                digester.append(double: value)
            case (.double(let type), SQLITE_FLOAT):
                let value = sqlite3_column_double(row, column)
                guard ValueFit.problem(.double(value), as: type) == nil else { return nil }
                digester.append(double: value)
            case (.date, SQLITE_INTEGER):
                guard let seconds = ValueFit.exactDouble(sqlite3_column_int64(row, column)) else { return nil }
                digester.append(dateSince1970: seconds + Self.referenceDateOffset)
            case (.date, SQLITE_FLOAT):
                let seconds = sqlite3_column_double(row, column)
                guard seconds.isFinite else { return nil }
                digester.append(dateSince1970: seconds + Self.referenceDateOffset)
            case (.text, SQLITE_TEXT):
                let text = Self.text(row, column)
                guard BulkCopyDigester.isCleanText(text) else { return nil }
                digester.append(text: text)
                bytes += text.count
            case (.decimal, SQLITE_TEXT):
                let text = Self.text(row, column)
                guard BulkCopyDigester.isCleanText(text), ValueFit.decimalProblem(String(decoding: text, as: UTF8.self)) == nil else { return nil }
                digester.append(text: text)
                bytes += text.count
            case (.decimal, SQLITE_INTEGER):
                var text = String(sqlite3_column_int64(row, column))
                text.withUTF8 { digester.append(text: $0) }
            case (.uuid, SQLITE_BLOB):
                let value = Self.blob(row, column)
                guard value.count == 16 else { return nil }
                digester.append(uuid: value)
            case (.binary, SQLITE_BLOB):
                let value = Self.blob(row, column)
                digester.append(bytes: value)
                bytes += value.count
            case (.inlineBinary, SQLITE_BLOB):
                // As the reader decodes external storage: 0x01 then the bytes inline, 0x02 then a
                // file name (refused here), anything else the bytes themselves; only values that
                // stay inline in the store (at most its threshold) are copied.
                var value = Self.blob(row, column)
                if value.first == 0x02 { return nil }
                if value.first == 0x01 { value = UnsafeRawBufferPointer(rebasing: value.dropFirst()) }
                guard value.count <= SyncStore.externalStorageThreshold else { return nil }
                digester.append(bytes: value)
                bytes += value.count
            default:
                return nil
            }
        }
        for toOne in toOnes {
            switch sqlite3_column_type(row, toOne.key) {
            case SQLITE_NULL:
                digester.appendNoTarget()
                continue
            case SQLITE_INTEGER:
                break
            default:
                return nil
            }
            let target = sqlite3_column_int64(row, toOne.key)
            guard target != 0 else {
                digester.appendNoTarget()
                continue
            }
            var prefix = toOne.declaredPrefix
            if let entity = toOne.entity {
                // The target's entity must be the destination or one of its sub-entities; a NULL,
                // unknown or other one is refused (the reader rejects such a record).
                guard sqlite3_column_type(row, entity) == SQLITE_INTEGER,
                      let named = toOne.prefixByNumber[sqlite3_column_int64(row, entity)] else { return nil }
                prefix = named
            }
            // The order is not part of the digest: a value the copy would store differently is refused here.
            if let order = toOne.order, sqlite3_column_type(row, order) != SQLITE_NULL, sqlite3_column_type(row, order) != SQLITE_INTEGER {
                return nil
            }
            digester.appendTarget(globalIDPrefix: prefix, number: target)
        }
        digester.finishRecord(into: &sum)
        return bytes
    }

    private static func text(_ row: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let count = Int(sqlite3_column_bytes(row, column))
        return UnsafeBufferPointer(start: sqlite3_column_text(row, column), count: count)
    }

    private static func blob(_ row: OpaquePointer, _ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(row, column))
        return UnsafeRawBufferPointer(start: sqlite3_column_blob(row, column), count: count)
    }
}
