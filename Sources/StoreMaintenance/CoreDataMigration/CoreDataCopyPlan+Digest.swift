import GRDBSQLite
import SyncStore

extension CoreDataCopyPlan {
    /// Checks the current row of ``readSQL`` and digests the record the copy will store from it
    /// (``BulkCopyDigester``), decoding each raw column the way `CoreDataStoreReader` does.
    ///
    /// - Returns: the bytes of the row's text and binary values, or `nil` when a value is one the
    ///   copy does not carry as the record-by-record path would (a storage class Core Data does not
    ///   write for the type, text that is not clean UTF-8, a binary value kept in a file or too
    ///   large to stay inline): nothing is added to `sum` then, and the row must go record by record.
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
            case (.integer, SQLITE_INTEGER):
                digester.append(integer: sqlite3_column_int64(row, column))
            case (.boolean, SQLITE_INTEGER):
                digester.append(boolean: sqlite3_column_int64(row, column) != 0)
            case (.boolean, SQLITE_FLOAT):
                digester.append(boolean: sqlite3_column_double(row, column) != 0)
            case (.double, SQLITE_INTEGER):
                digester.append(double: Double(sqlite3_column_int64(row, column)))
            case (.double, SQLITE_FLOAT):
                digester.append(double: sqlite3_column_double(row, column))
            case (.date, SQLITE_INTEGER):
                digester.append(dateSince1970: Double(sqlite3_column_int64(row, column)) + Self.referenceDateOffset)
            case (.date, SQLITE_FLOAT):
                digester.append(dateSince1970: sqlite3_column_double(row, column) + Self.referenceDateOffset)
            case (.text, SQLITE_TEXT), (.decimal, SQLITE_TEXT):
                let text = Self.text(row, column)
                guard BulkCopyDigester.isCleanText(text) else { return nil }
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
                switch sqlite3_column_type(row, entity) {
                case SQLITE_NULL: break
                case SQLITE_INTEGER: prefix = prefixByNumber[sqlite3_column_int64(row, entity)] ?? prefix
                default: return nil
                }
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
