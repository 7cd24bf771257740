import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// The one quoting helper every SQL statement built from a name goes through.
@Suite struct SQLIdentifierTests {
    static let hostileNames = [
        "plain", "a\"b", "\"", "\"\"", "ZX\" TEXT); CREATE TABLE PWNED (V); --", "it's", "semi;colon", "dash--dash",
        "ünïcødé 名前", String(repeating: "x", count: 10_000), "[bracket]", "`tick`",
    ]

    @Test("a quote inside a name is doubled, so the name stays one identifier")
    func quotesAreDoubled() {
        #expect("Speech".quotedSQLIdentifier == "\"Speech\"")
        #expect("a\"b".quotedSQLIdentifier == "\"a\"\"b\"")
        #expect("\"".quotedSQLIdentifier == "\"\"\"\"")
    }

    @Test("a string literal doubles its quotes and joins a NUL in, so SQLite reads back exactly the text")
    func literalsReadBackExactly() throws {
        #expect("it's".quotedSQLLiteral == "'it''s'")
        #expect("a\u{0}b".quotedSQLLiteral == "('a' || char(0) || 'b')")
        let queue = try DatabaseQueue()
        for name in Self.hostileNames + ["a\u{0}b", "\u{0}", "'\u{0}'", ""] {
            let bytes = try queue.read { db in try Data.fetchOne(db, sql: "SELECT CAST(\(name.quotedSQLLiteral) AS BLOB)") }
            #expect(bytes == Data(name.utf8), "\(name.prefix(40).debugDescription)")
        }
    }

    @Test("SQLite creates and reads tables and columns under exactly the hostile name, and nothing else")
    func sqliteSeesExactlyTheName() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            for (index, name) in Self.hostileNames.enumerated() {
                let table = "t\(index)_" + name
                try db.execute(sql: "CREATE TABLE \(table.quotedSQLIdentifier) (\(name.quotedSQLIdentifier) TEXT)")
                try db.execute(sql: "INSERT INTO \(table.quotedSQLIdentifier) (\(name.quotedSQLIdentifier)) VALUES (?)", arguments: [name])
                let read = try String.fetchOne(db, sql: "SELECT \(name.quotedSQLIdentifier) FROM \(table.quotedSQLIdentifier)")
                #expect(read == name)
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                #expect(columns == [name])
            }
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
            #expect(tables == Self.hostileNames.enumerated().map { "t\($0.offset)_" + $0.element })
        }
    }

    /// Names holding U+0000, which SQLite cannot keep in an identifier.
    static let nulNames = ["a\u{0}b", "\u{0}", "x\u{0}\" TEXT); CREATE TABLE PWNED (V); --", "PWNED\u{0}"]

    @Test("a NUL in a name is kept inside the quotes, so the statement is refused whole: nothing is made under the name cut short")
    func nulIsRefused() throws {
        #expect("a\u{0}b".quotedSQLIdentifier == "\"a\u{0}b\"")
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (v TEXT)")
            for name in Self.nulNames {
                // SQLite's tokenizer ends a quoted identifier at a NUL without its closing quote: an
                // unrecognized token, whether the text reaches it through GRDB or the raw C API.
                for sql in ["CREATE TABLE \(name.quotedSQLIdentifier) (v TEXT)", "ALTER TABLE t ADD COLUMN \(name.quotedSQLIdentifier) TEXT",
                            "SELECT \(name.quotedSQLIdentifier) FROM t", "INSERT INTO t (\(name.quotedSQLIdentifier)) VALUES (1)"] {
                    #expect(throws: DatabaseError.self, "\(sql.debugDescription)") { try db.execute(sql: sql) }
                    #expect(throws: StoreError.self, "\(sql.debugDescription)") { _ = try RawStatement(sql, db: db, path: "memory") }
                }
            }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") == ["t"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('t')") == ["v"])
        }
    }
}
