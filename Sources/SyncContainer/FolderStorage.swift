import Foundation
import ObjectModel

/// A container kept in a folder of the file system (a network share, a synced folder): the
/// ``ContainerStorage`` storekeep uses today. Files are written by ``DurableFile`` (a temporary
/// name beginning with `.`, fsynced, given its name by a rename, or by a hard link when nothing may
/// be replaced, the folder fsynced), removed with the folder fsynced.
public struct FolderStorage: ContainerStorage {
    /// Creates the storage.
    public init() {}

    /// The names in `folder`; none when it does not exist.
    public func list(_ folder: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            throw ContainerError(.unusableContainer, path: folder, message: "is a file where the container needs a folder", hint: "move the file away")
        }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw ContainerError(.io, path: folder, message: "cannot be listed: \(error.localizedDescription)", hint: "check the container's permissions")
        }
    }

    /// The bytes of `path`, or `nil` when there is no such file.
    public func read(_ path: String, limit: Int?) throws -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ContainerError(.io, path: path, message: "cannot be read", hint: "check the container's permissions")
        }
        defer { try? handle.close() }
        do {
            return try (limit.map { try handle.read(upToCount: $0) } ?? handle.readToEnd()) ?? Data()
        } catch {
            throw ContainerError(.io, path: path, message: "cannot be read: \(error.localizedDescription)", hint: "check the disk or share")
        }
    }

    /// Writes durably, making the folders it needs.
    public func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool) throws {
        try SyncNamespace.makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        do {
            try DurableFile.write(bytes, to: path, replacing: replacing)
        } catch let failure as DurableFile.Failure where failure.code == EEXIST && !replacing {
            throw ContainerError(.wouldOverwrite, path: path, message: "exists already; it is published once and never replaced",
                                 hint: "leave it as it is")
        } catch let failure as DurableFile.Failure {
            throw ContainerError.writing(failure)
        }
    }

    /// Removes `path` and fsyncs its folder.
    public func delete(_ path: String) throws -> Bool {
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw ContainerError(.io, path: path, message: "cannot be removed: \(String(cString: strerror(code)))", hint: "check the container's permissions")
        }
        DurableFile.syncFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        return true
    }

    /// Size and modification time from the file system.
    public func attributes(of path: String) -> (bytes: Int64, modified: Date)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return ((attributes[.size] as? NSNumber)?.int64Value ?? 0, attributes[.modificationDate] as? Date ?? .distantPast)
    }
}
