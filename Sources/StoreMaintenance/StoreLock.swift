import Foundation
import ObjectModel

/// The exclusive lock a command takes on a store before it changes it: a file `<store>.lock` holding
/// the owner's command, host, pid and start time.
///
/// A lock left by a process that no longer exists on this host is stale: it is taken over (and
/// ``tookOverStaleLock`` says so). A lock held by a live process, or by a process on another host,
/// refuses the command with exit 75.
///
/// ```swift
/// let lock = try StoreLock.acquire(for: "speeches.store", command: "migrate")
/// defer { lock.release() }
/// ```
public final class StoreLock: Sendable {
    /// What a lock file says about its owner.
    public struct Owner: Codable, Hashable, Sendable {
        /// The command holding the lock.
        public var command: String
        /// The host it runs on.
        public var host: String
        /// Its process ID.
        public var pid: Int32
        /// When it took the lock (ISO 8601).
        public var started: String

        /// Creates an owner entry.
        public init(command: String, host: String, pid: Int32, started: String) {
            self.command = command
            self.host = host
            self.pid = pid
            self.started = started
        }
    }

    /// The lock file.
    public let path: String
    /// This process's entry in the lock file.
    public let owner: Owner
    /// The stale lock that was taken over, if there was one.
    public let tookOverStaleLock: Owner?

    private init(path: String, owner: Owner, tookOver: Owner?) {
        self.path = path
        self.owner = owner
        self.tookOverStaleLock = tookOver
    }

    /// The lock file of a store.
    public static func lockPath(for store: String) -> String { store + ".lock" }

    /// Takes the lock of `store` for `command`.
    ///
    /// - Throws: ``MaintenanceError`` `.storeBusy` when another live process holds it;
    ///   `.cannotCreateOutput` when the lock file cannot be written.
    public static func acquire(for store: String, command: String) throws -> StoreLock {
        let path = lockPath(for: store)
        let me = Owner(command: command, host: ProcessInfo.processInfo.hostName,
                       pid: ProcessInfo.processInfo.processIdentifier, started: ISO8601DateFormatter().string(from: Date()))
        var tookOver: Owner?
        for _ in 0..<3 {
            if try create(path, owner: me) { return StoreLock(path: path, owner: me, tookOver: tookOver) }
            switch status(of: path) {
            case .absent:
                continue
            case .held(let holder):
                throw MaintenanceError(
                    path: store,
                    problem: "is locked by \(holder.command) (pid \(holder.pid) on \(holder.host), since \(holder.started))",
                    hint: "wait for it to finish; if that process is gone for good on another host, remove \(path)",
                    failureKind: .storeBusy)
            case .stale(let holder):
                // The owner died: move its lock aside atomically, so that two processes taking it over cannot both win.
                let aside = path + ".stale-\(me.pid)"
                if (try? DurableFile.move(path, to: aside)) != nil {
                    unlink(aside)
                    tookOver = holder
                }
            case .unreadable:
                throw MaintenanceError(path: path, problem: "the lock file cannot be read or is damaged",
                                       hint: "make sure no storekeep command is running on the store, then remove the lock file",
                                       failureKind: .storeBusy)
            }
        }
        throw MaintenanceError(path: store, problem: "could not take the store's lock", hint: "try again", failureKind: .storeBusy)
    }

    /// Gives the lock up (removes the lock file if it is still this process's).
    public func release() {
        if case .held(let holder) = Self.status(of: path), holder == owner { unlink(path) }
    }

    /// What a lock file says about a store, without taking it (used by `check` for stale locks).
    public enum Status: Equatable, Sendable {
        /// No lock file.
        case absent
        /// Held by a live process here, or by a process on another host.
        case held(Owner)
        /// Left by a process on this host that no longer exists.
        case stale(Owner)
        /// The file exists but says nothing usable.
        case unreadable
    }

    /// The status of the lock file at `path`.
    public static func status(of path: String) -> Status {
        guard FileManager.default.fileExists(atPath: path) else { return .absent }
        guard let data = FileManager.default.contents(atPath: path),
              let holder = try? JSONDecoder().decode(Owner.self, from: data) else { return .unreadable }
        guard holder.host == ProcessInfo.processInfo.hostName else { return .held(holder) }
        if kill(holder.pid, 0) == 0 || errno == EPERM { return .held(holder) }
        return .stale(holder)
    }

    /// Creates the lock file exclusively, complete or not at all; false when it already exists.
    ///
    /// The owner is written to a draft of this attempt's own (`<lock>.new-<pid>.<random>.<host>`:
    /// two threads, or two hosts sharing the folder, never share one), fsynced, then hard-linked to
    /// the lock's name, which fails when the lock exists. A process killed while writing leaves at
    /// worst its draft, never a half-written lock that would refuse every later command. Where the
    /// file system has no hard links, the lock is created in place.
    private static func create(_ path: String, owner: Owner) throws -> Bool {
        removeAbandonedDrafts(of: path)
        let draft = path + ".new-\(owner.pid).\(UUID().uuidString).\(owner.host)"
        let descriptor = open(draft, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw creationFailure(path)
        }
        let written = writeOwner(owner, to: descriptor)
        _ = close(descriptor)
        defer { unlink(draft) }
        guard written else {
            throw MaintenanceError(path: path, problem: "cannot write the lock file: \(String(cString: strerror(errno)))",
                                   hint: "check free space in the store's folder", failureKind: .cannotCreateOutput)
        }
        if link(draft, path) == 0 { return true }
        switch errno {
        case EEXIST: return false
        case EPERM, ENOTSUP, EOPNOTSUPP, EXDEV: return try createInPlace(path, owner: owner)
        default:
            throw creationFailure(path)
        }
    }

    /// The error for a lock file that cannot be created, with the system's reason (`errno`).
    private static func creationFailure(_ path: String) -> MaintenanceError {
        MaintenanceError(path: path, problem: "cannot create the lock file: \(String(cString: strerror(errno)))",
                         hint: "check the folder's permissions", failureKind: .cannotCreateOutput)
    }

    /// Creates the lock file exclusively where it stands (file systems without hard links).
    private static func createInPlace(_ path: String, owner: Owner) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw creationFailure(path)
        }
        defer { _ = close(descriptor) }
        _ = writeOwner(owner, to: descriptor)
        return true
    }

    /// Writes `owner` as JSON and fsyncs; false (with `errno` set) when the write fails. A file
    /// system that cannot fsync a file (`EINVAL`, `ENOTSUP`: some network and FUSE mounts) is
    /// accepted, as before the lock was written through a draft.
    private static func writeOwner(_ owner: Owner, to descriptor: Int32) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = Array((try? encoder.encode(owner)) ?? Data())
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            if written >= 0 { errno = EIO }
            return false
        }
        return fsync(descriptor) == 0 || errno == EINVAL || errno == ENOTSUP
    }

    /// Removes the drafts (`<lock>.new-<pid>.<random>.<host>`) of processes of this host that no
    /// longer exist (killed while taking the lock); drafts of other hosts are left alone.
    private static func removeAbandonedDrafts(of path: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + ".new-"
        let folder = url.deletingLastPathComponent().path
        let host = ProcessInfo.processInfo.hostName
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2] == host, let pid = Int32(parts[0]), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + name) }
        }
    }
}
