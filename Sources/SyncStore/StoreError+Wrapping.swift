import Foundation
import GRDB

extension StoreError {
    /// Whether `error` comes from the store itself (SQLite, or a value of a kind storekeep never
    /// writes) rather than from the caller's own work inside a transaction: such errors are turned
    /// into a ``StoreError`` naming the store (``wrapping(_:path:action:)``), the caller's pass through.
    static func comesFromTheStore(_ error: any Error) -> Bool {
        error is DatabaseError || error is DamagedValue || error is RowDecodingError
    }

    /// Turns any error from SQLite or the file system into a ``StoreError`` that says what was being done.
    static func wrapping(_ error: any Error, path: String, action: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DamagedValue {
            return StoreError(.damaged, path: path, message: "cannot \(action): \(error.description)",
                              hint: "the store was written around storekeep; `storekeep check` lists what is damaged; restore the store from a backup")
        }
        if let error = error as? RowDecodingError {
            // A value of a kind storekeep never writes (a store written around it): a typed error, never a crash.
            return StoreError(.damaged, path: path, message: "cannot \(action): a value in the store is not what storekeep writes (\(String(describing: error).prefix(300)))",
                              hint: "`storekeep check` lists what is damaged; restore the store from a backup")
        }
        if let error = error as? DatabaseError {
            if error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
                return StoreError(
                    .busy, path: path,
                    message: "cannot \(action): a process writing the store (a migration loading it, say) was killed part-way through a commit, which SQLite must roll back from \(path)-journal before the store can be read",
                    hint: "run the command that was writing again (a migration resumes where it stopped and rolls the commit back first); do not delete the -journal file")
            }
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return StoreError(.busy, path: path, message: "cannot \(action): the database is locked by another process",
                                  hint: "wait for the other process to finish, then try again")
            case .SQLITE_NOTADB:
                return StoreError(.notSQLite, path: path, message: "cannot \(action): the file is not a SQLite database")
            case .SQLITE_CORRUPT:
                return StoreError(.damaged, path: path, message: "cannot \(action): the database is damaged (\(error.message ?? "corrupt"))",
                                  hint: "restore the store from a backup")
            case .SQLITE_ERROR where ["no such table", "no such column"].contains(where: { error.message?.hasPrefix($0) == true }):
                // The store's metadata names a table or column its file lacks: its content is damaged, not the disk.
                return StoreError(.damaged, path: path, message: "cannot \(action): the store's layout is damaged (\(error.message ?? "a table is missing"))",
                                  hint: "restore the store from a backup; `storekeep check` lists what is missing")
            case .SQLITE_IOERR where diskIsNearlyFull(holding: path):
                // SQLite says "disk I/O error" when the -shm or the WAL cannot grow on a full disk.
                return StoreError(.io, path: path, message: "cannot \(action): the disk is full (\(error.message ?? "disk I/O error"))",
                                  hint: "free some space and run the same command again (a migration resumes where it stopped)")
            case .SQLITE_FULL:
                return StoreError(.io, path: path, message: "cannot \(action): the disk is full",
                                  hint: "free some space and run the same command again (a migration resumes where it stopped)")
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
                return StoreError(.io, path: path, message: "cannot \(action): \(error.message ?? "permission denied")",
                                  hint: "check the file's permissions and those of its folder")
            default:
                return StoreError(.io, path: path, message: "cannot \(action): \(error.message ?? "\(error.resultCode)")")
            }
        }
        return StoreError(.io, path: path, message: "cannot \(action): \(error)")
    }

    /// The number after `value` (the largest of a column: a sequence, a position, a row id), leaving
    /// room for a run of numbers after it.
    ///
    /// - Throws: `damaged` when `value` is so large that counting on would overflow: no store
    ///   storekeep writes gets near it, so the value was written around storekeep.
    static func number(after value: Int64?, _ what: String, path: String) throws -> Int64 {
        let value = value ?? 0
        guard value < Int64.max / 2 else {
            throw StoreError(.damaged, path: path, message: "\(what) is \(value), too large to count on from",
                             hint: "the store was written around storekeep; restore it from a backup")
        }
        return value + 1
    }

    /// The error for an external value's file that cannot be written: says when the disk is full.
    static func externalValue(_ error: any Error, path: String, entity: String, attribute: String, folder: String) -> StoreError {
        let code = (error as? POSIXError)?.code
        if code == .ENOSPC || code == .EDQUOT {
            return StoreError(.io, path: path, message: "cannot write the external value of \(entity).\(attribute) into \(folder): the disk is full",
                              hint: "free some space and run the same command again (a migration resumes where it stopped)")
        }
        return StoreError(.io, path: path, message: "cannot write the external value of \(entity).\(attribute) into \(folder): \(error.localizedDescription)",
                          hint: "check free space and permissions of \(folder)")
    }

    /// Whether the file system holding `path` has less than 1 MiB left.
    static func diskIsNearlyFull(holding path: String) -> Bool {
        var facts = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard statvfs(folder, &facts) == 0 else { return false }
        return UInt64(facts.f_bavail) * UInt64(facts.f_frsize) < 1 << 20
    }
}
