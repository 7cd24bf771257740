import GRDB

extension StoreError {
    /// Turns any error from SQLite or the file system into a ``StoreError`` that says what was being done.
    static func wrapping(_ error: any Error, path: String, action: String) -> StoreError {
        if let error = error as? StoreError { return error }
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
            case .SQLITE_FULL:
                return StoreError(.io, path: path, message: "cannot \(action): the disk is full", hint: "free some space and try again")
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
                return StoreError(.io, path: path, message: "cannot \(action): \(error.message ?? "permission denied")",
                                  hint: "check the file's permissions and those of its folder")
            default:
                return StoreError(.io, path: path, message: "cannot \(action): \(error.message ?? "\(error.resultCode)")")
            }
        }
        return StoreError(.io, path: path, message: "cannot \(action): \(error)")
    }
}
