import CSystemCalls
import Foundation

extension DurableFile {
    /// Publishes finished temporary files together (the entries of a restored archive): every
    /// file is made durable before the first gets its name (a rename, or a link when not
    /// `replacing`, as ``publish(_:as:replacing:)`` does), and the names and the folders that hold
    /// them are made durable once, after the last.
    ///
    /// Each fsync of a file and of its folder is a wait for the disk's cache to be flushed (about
    /// 50 ms on a virtual disk), two per file when published one by one. Where the system holds
    /// little unwritten data besides these files (`Dirty` and `Writeback` of `/proc/meminfo`, as
    /// ``DurableFileBatch`` decides), one `syncfs` of each file system before the names and one
    /// after take their place; otherwise each file and each folder is fsynced.
    ///
    /// ```swift
    /// try DurableFile.publishTogether([(staged, path), (otherStaged, otherPath)], replacing: false)
    /// ```
    ///
    /// - Parameters:
    ///   - files: each temporary file (closed, beside its final name) and the name it gets.
    ///   - othersDirtyLimit: how much unwritten data of others a `syncfs` may wait for (0: file by file).
    /// - Throws: ``Failure`` of the first file that could not be made durable or named (`EEXIST`
    ///   when the name is taken and not `replacing`): the files named before it keep their names,
    ///   and the temporaries not yet named are left to the caller to remove.
    public static func publishTogether(_ files: [(temporary: String, path: String)], replacing: Bool, othersDirtyLimit: Int = 32 << 20) throws {
        guard !files.isEmpty else { return }
        let syncedFileSystems = try syncTogether(files, othersDirtyLimit: othersDirtyLimit)
        for file in files {
            try reach(.temporaryWritten, path: file.path)
            if let failure = name(file.temporary, as: file.path, replacing: replacing) { throw failure }
            unlink(file.temporary)
            try reach(.published, path: file.path)
        }
        if syncedFileSystems.isEmpty || !syncedFileSystems.allSatisfy({ syncFileSystem(holding: folder(of: $0)) }) {
            for folder in Set(files.map { folder(of: $0.path) }).sorted() { syncFolder(folder) }
        }
    }

    /// Makes finished temporary files durable, without naming them: one `syncfs` of each file
    /// system that holds them where the system holds little unwritten data besides them (as
    /// ``publishTogether(_:replacing:othersDirtyLimit:)`` decides), otherwise an fsync of each.
    /// ``publishTogether(_:replacing:othersDirtyLimit:)`` begins with it; a caller that has other
    /// work to wait for can call it first on another thread, and the publish then finds little
    /// left to write.
    ///
    /// - Parameters:
    ///   - files: each temporary file and the name it is to get (the name errors report).
    ///   - othersDirtyLimit: how much unwritten data of others a `syncfs` may wait for (0: file by file).
    /// - Returns: one of the files of each file system synced whole (the folders that will hold
    ///   the names can be synced the same way), or none when each file was fsynced.
    /// - Throws: ``Failure`` of the first file that could not be found or made durable.
    @discardableResult
    public static func syncTogether(_ files: [(temporary: String, path: String)], othersDirtyLimit: Int = 32 << 20) throws -> [String] {
        guard !files.isEmpty else { return [] }
        var ownBytes = 0
        var fileSystems: [UInt64: String] = [:]
        for file in files {
            var facts = stat()
            guard stat(file.temporary, &facts) == 0 else {
                let code = errno
                throw Failure(path: file.path, reason: "find the finished temporary file \(file.temporary): \(String(cString: strerror(code)))", code: code)
            }
            ownBytes += Int(facts.st_size)
            fileSystems[UInt64(facts.st_dev)] = fileSystems[UInt64(facts.st_dev)] ?? file.temporary
        }
        let wholeFileSystems = othersDirtyLimit > 0 && (DurableFileBatch.unwrittenBytes().map { $0 <= ownBytes + othersDirtyLimit } ?? false)
        if !(wholeFileSystems && fileSystems.values.allSatisfy(syncFileSystem(holding:))) {
            for file in files {
                let descriptor = open(file.temporary, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    let code = errno
                    throw Failure(path: file.path, reason: "open the finished temporary file \(file.temporary): \(String(cString: strerror(code)))", code: code)
                }
                defer { _ = close(descriptor) }
                try sync(descriptor: descriptor, path: file.path)
            }
            return []
        }
        return Array(fileSystems.values)
    }

    /// `syncfs` of the file system holding `path` (a file or a folder); whether it succeeded.
    private static func syncFileSystem(holding path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        return storekeep_syncfs(descriptor) == 0
    }
}
