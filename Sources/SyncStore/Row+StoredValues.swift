import Foundation
import GRDB

extension Row {
    /// The value of `column` as `T`, or `nil` when the column is missing, NULL, or holds a value of
    /// another kind.
    ///
    /// GRDB's typed subscripts stop the process on a value they cannot convert (even the optional
    /// ones, on a text where a number was expected); a store written around storekeep may hold
    /// anything, so everything read from a store goes through here or ``required(_:as:table:row:store:)``.
    func stored<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        (self[column] as (any DatabaseValueConvertible)?).flatMap { Self.exactly($0.databaseValue, as: T.self) }
    }

    /// The value of `column` as it is stored (NULL when the column is missing).
    func storedValue(_ column: String) -> DatabaseValue {
        (self[column] as (any DatabaseValueConvertible)?)?.databaseValue ?? .null
    }

    /// The value at `index` as `T`, or `nil` when it is NULL or of another kind (see ``stored(_:as:)``).
    func stored<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) -> T? {
        (self[index] as (any DatabaseValueConvertible)?).flatMap { Self.exactly($0.databaseValue, as: T.self) }
    }

    /// The value of `column` as `T`.
    ///
    /// - Parameters:
    ///   - table: the table the row comes from, and `row` what identifies it, for the message.
    ///   - store: the store file.
    /// - Throws: ``StoreError`` `damaged` naming the store, the table, the row and the column when
    ///   the value is NULL or of another kind.
    func required<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self, table: String, row: @autoclosure () -> String,
                                               store: String) throws -> T {
        if let value = stored(column, as: T.self) { return value }
        throw Self.damagedValue(self[column] as (any DatabaseValueConvertible)?, as: T.self, table: table, column: column, row: row(), store: store)
    }

    /// The value of `column` as `T`, or `nil` when it is NULL (or the row has no such column).
    ///
    /// Unlike GRDB's optional subscripts, which stop the process on a value they cannot convert,
    /// and ``stored(_:as:)``, which reads such a value as absent, a value of another kind is an error.
    ///
    /// - Throws: ``StoreError`` `damaged` naming the store, the table, the row and the column when
    ///   the value is of another kind (text where a number belongs, a blob that is not UTF-8 text).
    func optional<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self, table: String, row: @autoclosure () -> String,
                                               store: String) throws -> T? {
        let value = self[column] as (any DatabaseValueConvertible)?
        guard let value, !value.databaseValue.isNull else { return nil }
        if let converted = Self.exactly(value.databaseValue, as: T.self) { return converted }
        throw Self.damagedValue(value, as: T.self, table: table, column: column, row: row(), store: store)
    }

    /// The value at `index` as `T`, or `nil` when it is NULL (see ``optional(_:as:table:row:store:)``).
    func optional<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self, table: String, row: @autoclosure () -> String,
                                               store: String) throws -> T? {
        let value = self[index] as (any DatabaseValueConvertible)?
        guard let value, !value.databaseValue.isNull else { return nil }
        if let converted = Self.exactly(value.databaseValue, as: T.self) { return converted }
        let names = Array(columnNames)
        throw Self.damagedValue(value, as: T.self, table: table, column: names.indices.contains(index) ? names[index] : "column \(index + 1)",
                                row: row(), store: store)
    }

    /// `value` as `T`, or `nil` when it is of another kind: GRDB reads the real 1.5 as the
    /// integer 1, so a real is an integer's value only when it is a whole number.
    static func exactly<T: DatabaseValueConvertible>(_ value: DatabaseValue, as type: T.Type) -> T? {
        if case .double(let number) = value.storage, T.self is any BinaryInteger.Type {
            guard let whole = Int64(exactly: number) else { return nil }
            return T.fromDatabaseValue(whole.databaseValue)
        }
        return T.fromDatabaseValue(value)
    }

    /// The error for a value a store holds that is not of the kind storekeep writes there.
    static func damagedValue<T>(_ value: (any DatabaseValueConvertible)?, as type: T.Type, table: String, column: String, row: String,
                                store: String) -> StoreError {
        return StoreError(.damaged, path: store,
                          message: "\(table), \(row): \(column) holds \(describe(value?.databaseValue ?? .null)), where storekeep writes \(kind(of: T.self))",
                          hint: "the store was written around storekeep; `storekeep check` lists what is damaged; restore the store from a backup")
    }
}

extension Row {
    /// A stored value for a message: its kind, and the value when it is short.
    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let number): return "the integer \(number)"
        case .double(let number): return "the real \(number)"
        case .string(let text): return "the text '\(text.prefix(60))\(text.count > 60 ? "…" : "")'"
        case .blob(let data): return "a blob of \(data.count) bytes\(String(data: data, encoding: .utf8) == nil ? " that is not UTF-8 text" : "")"
        }
    }

    /// What storekeep writes for a value read as `type`, in words.
    static func kind<T>(of type: T.Type) -> String {
        switch type {
        case is Int64.Type, is Int.Type, is Int32.Type: return "an integer"
        case is Double.Type: return "a number"
        case is String.Type: return "UTF-8 text"
        case is Data.Type: return "a blob"
        case is Bool.Type: return "0 or 1"
        default: return "a \(T.self) value"
        }
    }
}

extension Database {
    /// The first column of the first row `sql` returns, as `T`; `nil` when there is no row or the
    /// value is NULL.
    ///
    /// GRDB's `T.fetchOne` converts whatever the column holds (the text `'abc'` read as the integer
    /// 0); a store written around storekeep may hold anything, so values are read through here.
    ///
    /// - Parameters:
    ///   - table: the table the value comes from, and `row` what identifies it, for the message.
    /// - Throws: ``StoreError`` `damaged` when the value is of another kind.
    func storedValue<T: DatabaseValueConvertible>(_ type: T.Type, sql: String, arguments: StatementArguments = [], table: String,
                                                  row: @autoclosure () -> String, store: String) throws -> T? {
        try Row.fetchOne(self, sql: sql, arguments: arguments)?.optional(at: 0, as: T.self, table: table, row: row(), store: store)
    }
}
