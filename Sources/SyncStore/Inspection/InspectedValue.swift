import Foundation
import GRDB

/// One value as a store file holds it, read without converting it: what `check` reports when a
/// value is not what storekeep writes.
///
/// ```swift
/// InspectedValue.text("Keynote").description    // "Keynote"
/// InspectedValue.blob(Data(count: 3)).description  // "<3 bytes>"
/// InspectedValue.integer(7).kind                 // .integer
/// ```
public enum InspectedValue: Hashable, Sendable, CustomStringConvertible {
    /// SQL NULL.
    case null
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text (SQLite's reading of the bytes as UTF-8).
    case text(String)
    /// A blob.
    case blob(Data)

    /// SQLite's storage classes, named as `typeof()` names them.
    public enum Kind: String, Hashable, Sendable {
        /// NULL.
        case null
        /// An integer.
        case integer
        /// A floating-point number.
        case real
        /// Text.
        case text
        /// A blob.
        case blob
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    /// The value's storage class.
    public var kind: Kind {
        switch self {
        case .null: return .null
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }

    /// The value as text for a message: numbers and text as they are (text cut at 200
    /// characters), a blob as `<N bytes>`, NULL as `null`.
    public var description: String {
        switch self {
        case .null: return "null"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return text.count > 200 ? String(text.prefix(200)) + "…" : text
        case .blob(let data): return "<\(data.count) bytes>"
        }
    }
}
