import GRDB

/// Why an inspection (``StoreInspector``) could not read what it was asked for, with SQLite's own
/// words: a damaged file, a missing table, a store held by another process.
///
/// ```swift
/// do { try inspector.inspect { try $0.sequenceGaps() } }
/// catch let error as StoreInspectionError where error.kind == .busy { /* try again later */ }
/// ```
public struct StoreInspectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Hashable, Sendable {
        /// Another process holds the store (SQLite's `BUSY` or `LOCKED`).
        case busy
        /// A process writing the store through a rollback journal was killed part-way through a
        /// commit: SQLite must roll it back from the `-journal` file before anyone can read the store.
        case rollbackPending
        /// Anything else: a damaged file or layout, a missing table or column, an I/O error.
        case unreadable
    }

    /// The kind.
    public var kind: Kind
    /// What SQLite said.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// ``message``.
    public var description: String { message }

    /// The inspection error for an error SQLite threw; other errors are returned as they are.
    static func converting(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        let kind: Kind
        if error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
            kind = .rollbackPending
        } else if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            kind = .busy
        } else {
            kind = .unreadable
        }
        return StoreInspectionError(kind: kind, message: error.message ?? "\(error)")
    }
}
