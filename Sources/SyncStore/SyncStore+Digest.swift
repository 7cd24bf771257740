import Foundation
import GRDB
import ObjectModel

extension SyncStore {
    /// Computes the digest of the store's content (documented in `docs/format.md`).
    ///
    /// Covered: every live record's entity, global ID, seed mark, attribute values (binary values by
    /// their SHA-256, so inline and external values digest alike), to-one targets, and the members
    /// of every to-many relationship in their order (ordered relationships) or by global ID.
    /// Not covered: row ids, creation and update times, history, peers.
    public func contentDigest() throws -> ContentDigest {
        try contentDigestAndRecordSums().digest
    }

    /// The content digest together with, per exact entity, the number of live records and the sum
    /// of their line digests (``RecordDigestSum``): what a migration verifies, from the same single
    /// pass over the records.
    public func contentDigestAndRecordSums() throws -> (digest: ContentDigest, sums: [String: (count: Int, sum: RecordDigestSum)]) {
        try read("compute the content digest") { db in
            var total = SHA256()
            total.update("storekeep-content-digest 2\n")
            var entities: [String: ContentDigest.Entity] = [:]
            var sums: [String: (count: Int, sum: RecordDigestSum)] = [:]
            var records = 0
            var links = 0
            for entity in model.entities.sorted(by: { $0.name < $1.name }) {
                var sum = RecordDigestSum()
                let (count, entityLinks) = try digestRecords(of: entity.name, in: db, sum: &sum)
                var hasher = SHA256()
                hasher.update("R \(count) \(sum)\n")
                links += entityLinks
                links += try digestToMany(of: entity.name, in: db, into: &hasher)
                let hex = hasher.finalizeHex()
                entities[entity.name] = ContentDigest.Entity(records: count, digest: hex)
                sums[entity.name] = (count, sum)
                records += count
                total.update("\(entity.name) \(count) \(hex)\n")
            }
            return (ContentDigest(digest: total.finalizeHex(), records: records, links: links, entities: entities), sums)
        }
    }

    /// Adds the digest of each record's line to `sum`, reading the records in storage order;
    /// returns the number of records and of to-one links.
    private func digestRecords(of entity: String, in db: Database, sum: inout RecordDigestSum) throws -> (Int, Int) {
        guard let encoder = plans[entity]?.lineEncoder else { return (0, 0) }
        var count = 0
        var links = 0
        let statement = try RawStatement(encoder.selectSQL, db: db, path: path)
        statement.bind(1, entity)
        var line = RecordLineBuffer()
        while try statement.step() {
            count += 1
            links += encoder.write(row: statement, into: &line)
            sum.add(line: line)
        }
        return (count, links)
    }

    /// The canonical line of a record about to be imported: the same text ``contentDigest()`` reads
    /// from the store once the record is written (model defaults applied, binary values by SHA-256).
    public func digestLine(of record: ImportRecord) -> String {
        plans[record.entity]?.lineEncoder.line(for: record) ?? "R \(record.globalID.rawValue) ?"
    }

    /// Adds the digest of `record`'s canonical line (``digestLine(of:)``) to `sum`, reusing `line`
    /// as scratch space: the per-record step of a migration.
    public func addDigest(of record: ImportRecord, to sum: inout RecordDigestSum, scratch line: inout RecordLineBuffer) {
        guard let encoder = plans[record.entity]?.lineEncoder else {
            sum.add(line: digestLine(of: record))
            return
        }
        encoder.write(record, into: &line)
        sum.add(line: line)
    }

    /// The number of live records of exactly `entity` and the sum of their line digests.
    public func recordDigestSum(of entity: String) throws -> (count: Int, sum: RecordDigestSum) {
        guard let encoder = plans[entity]?.lineEncoder else { return (0, RecordDigestSum()) }
        return try read("digest records") { db in
            var sum = RecordDigestSum()
            var count = 0
            let statement = try RawStatement(encoder.selectSQL, db: db, path: path)
            statement.bind(1, entity)
            var line = RecordLineBuffer()
            while try statement.step() {
                count += 1
                _ = encoder.write(row: statement, into: &line)
                sum.add(line: line)
            }
            return (count, sum)
        }
    }

    /// Digests the members of each to-many relationship declared (or inherited) by `entity`, in order.
    private func digestToMany(of entity: String, in db: Database, into hasher: inout SHA256) throws -> Int {
        guard let table = layout.tableOfEntity[entity] else { return 0 }
        var links = 0
        for (name, storage) in (layout.relationships[entity] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let sql: String
            switch storage {
            case .column:
                continue
            case .inverseColumn(let childTable, let column, let orderColumn):
                // Members are derived from the children's to-one column (already digested there); only the order is new.
                guard let orderColumn else { continue }
                sql = """
                    SELECT p._gid, c._gid FROM \(table.quotedSQLIdentifier) p
                    JOIN \(childTable.quotedSQLIdentifier) c ON c.\(column.quotedSQLIdentifier) = p._gid
                    WHERE p._entity = \(entity.quotedSQLLiteral)
                    ORDER BY p._gid, c.\(orderColumn.quotedSQLIdentifier), c._gid
                    """
            case .join(let joinTable, let sourceColumn, let targetColumn, let sourceOrder, _):
                let order = sourceOrder.map { "j.\($0), " } ?? ""
                sql = """
                    SELECT p._gid, j.\(targetColumn) FROM \(table.quotedSQLIdentifier) p
                    JOIN \(joinTable.quotedSQLIdentifier) j ON j.\(sourceColumn) = p._gid
                    WHERE p._entity = \(entity.quotedSQLLiteral)
                    ORDER BY p._gid, \(order)j.\(targetColumn)
                    """
            }
            hasher.update("M \(name)\n")
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                if case .join = storage { links += 1 }
                hasher.update("\(Self.field(row[0] as DatabaseValue)) \(Self.field(row[1] as DatabaseValue))\n")
            }
        }
        return links
    }

    /// A text field with its length, so that no two different sequences of fields read alike.
    static func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }

    /// ``field(_:)`` of a text value; anything else (NULL or another kind, in a store written around
    /// storekeep) is written so that it reads like no text.
    static func field(_ value: DatabaseValue) -> String {
        if let text = value.storage.value as? String { return field(text) }
        return "?\(value)"
    }

    /// The canonical text of one stored value.
    static func encode(_ value: DatabaseValue, type: AttributeType) -> String {
        switch ValueCoder.attributeValue(value, for: type) {
        case .null: return "~"
        case .integer(let number): return "i\(number)"
        case .double(let number): return "d" + String(number.bitPattern, radix: 16)
        case .decimal(let text): return "n" + field(text)
        case .string(let text):
            if type.isBinary, text.hasPrefix(BlobStore.referencePrefix) {
                return "x" + text.dropFirst(BlobStore.referencePrefix.count)
            }
            return "s" + field(text)
        case .boolean(let flag): return flag ? "b1" : "b0"
        case .date(let date): return "t" + String(date.timeIntervalSince1970.bitPattern, radix: 16)
        case .binary(let data): return "x" + SHA256.hexDigest(of: data)
        case .uuid(let uuid): return "u" + uuid.uuidString
        case .uri(let text): return "r" + field(text)
        }
    }
}
