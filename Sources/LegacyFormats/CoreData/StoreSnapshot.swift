import Foundation
import ObjectModel

/// A private copy of a Core Data store (the main file with its `-wal` and `-journal`, when present)
/// in a fresh temporary folder, so that SQLite can replay committed WAL frames and roll back a hot
/// journal without touching the source. Nothing is ever written next to the source.
///
/// The `-shm` file is not copied: it is only an index of the `-wal`, and SQLite rebuilds it from
/// the `-wal` when the copy is opened. The copy costs as much disk space as the store.
struct StoreSnapshot: Sendable {
    /// The source store, as given.
    let sourcePath: String
    /// The folder holding the copy.
    let folder: URL
    /// The copied main file.
    let databasePath: String

    /// Checks that `source` is a SQLite file and copies it with its companions.
    ///
    /// The companions are copied before the main file, and the sizes and dates of all of them are
    /// compared before and after: a store that changed meanwhile is copied again (three tries), so a
    /// checkpoint running during the copy cannot lose committed rows.
    static func make(of source: URL) throws(CoreDataStoreError) -> StoreSnapshot {
        let path = source.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreDataStoreError(
                path: path, problem: "no such file", hint: "give the path of a Core Data .sqlite store",
                failureKind: .missingInput)
        }
        guard !isDirectory.boolValue else {
            throw CoreDataStoreError(
                path: path, problem: "is a folder, not a Core Data store",
                hint: "give the path of the .sqlite file inside it")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CoreDataStoreError(
                path: path, problem: "cannot be read", hint: "check the file's permissions", failureKind: .missingInput)
        }
        let prefix = Array((try? handle.read(upToCount: 64)) ?? Data())
        try? handle.close()
        guard FileContent.isSQLite(prefix) else {
            throw CoreDataStoreError(
                path: path, problem: "not a SQLite database; it looks like \(FileContent.describe(prefix))",
                hint: "give the path of a Core Data .sqlite store")
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeep-coredata-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            throw CoreDataStoreError(
                path: folder.path, problem: "cannot create a private copy folder: \(error.localizedDescription)",
                hint: "check that the temporary folder (TMPDIR) is writable and has room for a copy of the store",
                failureKind: .cannotCreateOutput)
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let snapshot = StoreSnapshot(sourcePath: path, folder: folder, databasePath: folder.appendingPathComponent(name).path)
        do {
            try snapshot.copyConsistently(name: name)
        } catch {
            snapshot.remove()
            throw error
        }
        return snapshot
    }

    /// Removes the copy (and whatever SQLite created next to it).
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func copyConsistently(name: String) throws(CoreDataStoreError) {
        let companions = ["-wal", "-journal"]
        for _ in 0..<3 {
            let before = Self.fingerprint(of: [sourcePath] + companions.map { sourcePath + $0 })
            for suffix in companions + [""] {
                let from = sourcePath + suffix
                guard FileManager.default.fileExists(atPath: from) else { continue }
                try copy(from, to: folder.appendingPathComponent(name + suffix).path)
            }
            let after = Self.fingerprint(of: [sourcePath] + companions.map { sourcePath + $0 })
            if before == after { return }
            for suffix in companions + [""] {
                try? FileManager.default.removeItem(atPath: folder.appendingPathComponent(name + suffix).path)
            }
        }
        throw CoreDataStoreError(
            path: sourcePath, problem: "the store kept changing while it was being copied",
            hint: "quit the app that uses the store, then try again", failureKind: .storeBusy)
    }

    private func copy(_ from: String, to: String) throws(CoreDataStoreError) {
        do {
            try FileManager.default.copyItem(atPath: from, toPath: to)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: to)
        } catch {
            throw CoreDataStoreError(
                path: from, problem: "cannot copy it to a private folder: \(error.localizedDescription)",
                hint: "check the file's permissions and that the temporary folder has room for a copy of the store",
                failureKind: .ioFailure)
        }
    }

    private static func fingerprint(of paths: [String]) -> [String] {
        paths.map { path in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "absent" }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(size)@\(date)"
        }
    }
}
