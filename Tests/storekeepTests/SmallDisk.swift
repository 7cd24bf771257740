import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An 8 MiB tmpfs mounted for one test, which a test fills up to leave only so much room: a disk
/// that runs full part-way through a command. Mounting needs root; ``isAvailable`` says whether
/// this process can (it mounts and unmounts one probe, once).
final class SmallDisk {
    /// The folder the file system is mounted on.
    let url: URL
    private var filler: URL { url.appendingPathComponent(".filler") }

    /// Whether this process can mount a tmpfs (it runs as root and mounts are allowed here).
    static let isAvailable: Bool = {
        guard getuid() == 0, let probe = try? SmallDisk() else { return false }
        probe.unmount()
        return true
    }()

    /// Why the disk-full tests are skipped when they are.
    static let unavailable: Comment = "disk-full tests need root and `mount -t tmpfs` (run `swift test` as root): skipped"

    /// Mounts a fresh 8 MiB tmpfs on a new temporary folder.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storekeep-small-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", url.path]) else {
            try? FileManager.default.removeItem(at: url)
            throw StorekeepProcess.HarnessError(description: "cannot mount a tmpfs on \(url.path)")
        }
    }

    /// Bytes still free.
    var available: Int {
        var facts = statvfs()
        guard statvfs(url.path, &facts) == 0 else { return 0 }
        return Int(facts.f_bavail) * Int(facts.f_frsize)
    }

    /// Takes up the room above `bytes` with a file the test owns (really allocated, not sparse).
    func fill(leaving bytes: Int) throws {
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw StorekeepProcess.HarnessError(description: "cannot create \(filler.path)") }
        defer { close(descriptor) }
        let size = available - bytes
        guard size > 0, posix_fallocate(descriptor, 0, off_t(size)) == 0 else {
            throw StorekeepProcess.HarnessError(description: "cannot fill \(url.path) to leave \(bytes) bytes (\(available) free)")
        }
    }

    /// Frees the room ``fill(leaving:)`` took.
    func makeRoom() throws {
        try FileManager.default.removeItem(at: filler)
    }

    /// Unmounts the file system and removes the folder.
    func unmount() {
        _ = Self.run("/bin/umount", [url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
