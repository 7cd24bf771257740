import Foundation
import GRDB

/// Opens a store file read-only for inspection, even a damaged one: what `check` reads a store
/// through, without knowing its tables.
///
/// Each ``inspect(_:)`` opens a connection of its own and reads in one SQLite read transaction,
/// so everything it reads comes from one consistent state, even beside a running writer. Nothing
/// is ever written: with ``Access-swift.enum/immutable`` SQLite does not even create the `-wal` or
/// `-shm` files beside the store.
///
/// ```swift
/// let inspector = StoreInspector(path: "speeches.store", access: .snapshot)
/// let gaps = try inspector.inspect { inspection in try inspection.sequenceGaps() }
/// let lines = try inspector.integrityCheck(full: false)   // ["ok"]
/// ```
public struct StoreInspector: Sendable {
    /// How the file is opened.
    public enum Access: Hashable, Sendable {
        /// As a file nobody writes (SQLite's `immutable=1`): nothing is created beside it, and no
        /// lock is taken. Only right when no process has the store open; the caller answers for that.
        case immutable
        /// As SQLite's readers open it: a read transaction sees the last commit, beside any writer.
        case snapshot
    }

    /// The store file.
    public let path: String
    /// How it is opened.
    public let access: Access

    /// An inspector of the store at `path`; nothing is opened until it is used.
    public init(path: String, access: Access) {
        self.path = path
        self.access = access
    }

    /// What SQLite opens: the path, or a URI that says the file is immutable.
    var location: String {
        guard access == .immutable else { return path }
        return "file:\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)?immutable=1"
    }

    var configuration: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "storekeep.inspection"
        return configuration
    }

    /// Runs `body` with an inspection of the store, in one read transaction on a connection of its own.
    ///
    /// - Throws: ``StoreInspectionError`` when the file cannot be opened or read, and what `body` throws.
    public func inspect<Result>(_ body: (StoreInspection) throws -> Result) throws -> Result {
        SyncStore.prepareSQLite()
        do {
            let queue = try DatabaseQueue(path: location, configuration: configuration)
            defer { try? queue.close() }
            return try queue.inDatabase { db in
                db.add(function: PatternMatcher().function)
                // One read transaction for every query: one consistent state beside any writer. It is
                // ended with a rollback whose failure does not matter (a damaged file may have ended it already).
                try db.execute(sql: "BEGIN DEFERRED")
                defer { try? db.execute(sql: "ROLLBACK") }
                return try body(StoreInspection(db: db, path: path))
            }
        } catch {
            throw StoreInspectionError.converting(error)
        }
    }

    /// SQLite's own check of the file, on a connection of its own: `PRAGMA integrity_check` when
    /// `full`, else `PRAGMA quick_check`. Returns the lines SQLite reports (`["ok"]` when it finds nothing).
    ///
    /// It reads every page once; run it on another thread beside ``inspect(_:)`` to use two cores.
    /// Beside a running writer it may see a later commit than an inspection does, which does not
    /// change what it checks: the file's structure.
    ///
    /// - Throws: ``StoreInspectionError``.
    public func integrityCheck(full: Bool) throws -> [String] {
        do {
            let queue = try DatabaseQueue(path: location, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA \(full ? "integrity_check" : "quick_check")") }
        } catch {
            throw StoreInspectionError.converting(error)
        }
    }
}
