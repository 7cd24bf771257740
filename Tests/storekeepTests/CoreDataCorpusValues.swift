import Foundation
import ObjectModel
import SyncStore
import Testing

/// The rows of a Core Data store as Python's sqlite3 reads them, independently of storekeep, and
/// the check that a migrated store holds the same values.
struct CoreDataCorpusValues {
    /// Every row, by `<root table>/p<Z_PK>`: column → value (JSON: numbers, text, `null`, or
    /// `{"blob": hex}` for bytes).
    let rows: [String: [String: Any]]

    /// Reads `store` with Python's sqlite3 (read-only, immutable).
    init(store: String) throws {
        let output = try Python.run("""
            import sqlite3, sys, json
            c = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
            ents = {e: (n, s) for e, n, s in c.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")}
            def root(e):
                while ents[e][1]:
                    e = ents[e][1]
                return ents[e][0]
            out = {}
            for e in ents:
                table = "Z" + root(e).upper()
                cur = c.execute('SELECT * FROM "%s" WHERE Z_ENT = ?' % table, (e,))
                cols = [d[0] for d in cur.description]
                for row in cur:
                    rec = {col: ({"blob": v.hex()} if isinstance(v, bytes) else v) for col, v in zip(cols, row)}
                    out["%s/p%d" % (table, rec["Z_PK"])] = rec
            print(json.dumps(out))
            """, [store])
        rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]] ?? [:]
    }

    /// The source row of a migrated record: by its root entity's table in `model` and the primary
    /// key at the end of its Core Data global ID.
    func row(of id: GlobalID, entity: String, in model: ManagedModel) -> [String: Any]? {
        let root = model.inheritanceChain(of: entity).first?.name ?? entity
        return rows["Z\(root.uppercased())/p\(CoreDataBundleMigrationTests.primaryKey(of: id))"]
    }

    /// Whether a migrated value equals the one Python read, for the attribute type it has.
    static func equal(_ value: AttributeValue, _ stored: Any?) -> Bool {
        let number = stored as? NSNumber
        switch value {
        case .null: return stored == nil || stored is NSNull
        case .string(let text), .uri(let text): return stored as? String == text
        case .integer(let integer): return number?.int64Value == integer && !(stored is String)
        case .double(let double): return number?.doubleValue == double
        case .boolean(let flag): return number?.int64Value == (flag ? 1 : 0)
        case .date(let date): return number.map { $0.doubleValue + 978_307_200 } == date.timeIntervalSince1970
        case .decimal(let text): return (stored as? String).map { Decimal(string: $0) } == Decimal(string: text) || number.map { Decimal(string: $0.stringValue) } == Decimal(string: text)
        case .uuid(let uuid):
            return withUnsafeBytes(of: uuid.uuid) { Data($0) }.map { String(format: "%02x", $0) }.joined() == (stored as? [String: String])?["blob"]
        case .binary(let data): return data.map { String(format: "%02x", $0) }.joined() == (stored as? [String: String])?["blob"]
        }
    }

    /// Checks every record of `store` against its source row: each attribute whose column the
    /// source has holds the same value, each to-one the same target, and none of `dropped`
    /// (`Entity.attribute` of the source) is in the target. Returns how many values were compared.
    @discardableResult
    func expectSameValues(in store: SyncStore, dropped: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var compared = 0
        var records = 0
        for entity in store.model.entities where !entity.isAbstract {
            for id in try store.globalIDs(of: entity.name, includingSubentities: false) {
                records += 1
                let record = try #require(try store.record(id), sourceLocation: sourceLocation)
                guard let row = row(of: id, entity: entity.name, in: store.model) else {
                    Issue.record("\(id): no source row", sourceLocation: sourceLocation)
                    continue
                }
                for (name, value) in record.values {
                    guard let stored = row["Z\(name.uppercased())"] else { continue }
                    #expect(Self.equal(value, stored), "\(id) \(name): \(value) ≠ \(stored)", sourceLocation: sourceLocation)
                    compared += 1
                }
                for relationship in store.model.relationships(of: entity.name) where !relationship.isToMany && !relationship.isTransient {
                    guard let stored = row["Z\(relationship.name.uppercased())"] else { continue }
                    let target = try store.related(relationship.name, of: id).map(CoreDataBundleMigrationTests.primaryKey)
                    let expected = (stored as? NSNumber).flatMap { $0.int64Value == 0 ? nil : [String($0.int64Value)] } ?? []
                    #expect(target == expected, "\(id) \(relationship.name)", sourceLocation: sourceLocation)
                    compared += 1
                }
                for name in dropped where name.hasPrefix("\(entity.name).") {
                    #expect(record.values[String(name.dropFirst(entity.name.count + 1))] == nil, "\(id): \(name) is dropped", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(records == rows.count, "every source row is a record", sourceLocation: sourceLocation)
        return compared
    }
}
