import Foundation

extension DurableFile {
    /// A fresh temporary name beside `path`: `.<name>.<pid>.<random>.tmp` in the same folder (so
    /// that a rename moves no data, and readers that skip names starting with `.` never see it).
    ///
    /// ```swift
    /// let temporary = DurableFile.temporaryPath(for: "/backups/notes.tar.zst")
    /// // "/backups/.notes.tar.zst.4242.3735928559.tmp"
    /// ```
    public static func temporaryPath(for path: String) -> String {
        let folder = folder(of: path)
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return folder + "/." + name + ".\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
    }

    /// The file name and the process of a temporary name made by ``temporaryPath(for:)``, or
    /// `nil` when `name` (a file name, without folder) is not one.
    ///
    /// ```swift
    /// DurableFile.temporaryOwner(ofName: ".notes.tar.zst.4242.3735928559.tmp")   // ("notes.tar.zst", 4242)
    /// ```
    public static func temporaryOwner(ofName name: String) -> (file: String, pid: Int32)? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid > 0, UInt32(parts[parts.count - 1]) != nil else { return nil }
        let file = parts.dropLast(2).joined(separator: ".")
        return file.isEmpty ? nil : (file, pid)
    }

    /// Whether `name` is a temporary name of a durable write by a process that still runs (on this
    /// host): a file that may yet be published, not a leftover.
    public static func isTemporaryOfLiveProcess(_ name: String) -> Bool {
        guard let owner = temporaryOwner(ofName: name) else { return false }
        return kill(owner.pid, 0) == 0 || errno == EPERM
    }

    /// Removes the temporary files of earlier durable writes of `path` whose process is gone (a
    /// run that was killed part-way), and this process's own (a write it stopped part-way: one process
    /// never writes one file twice at a time). Those of other live processes may still be published and are left.
    public static func removeAbandonedTemporaries(of path: String) {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        removeTemporaries(in: folder(of: path)) { owner in owner.file == name && (owner.pid == getpid() || isGone(owner.pid)) }
    }

    /// Removes from `folder` the temporary files of durable writes whose process is gone (runs
    /// killed part-way), whichever file they were for. Those of live processes, this one's
    /// included, may still be published and are left.
    public static func removeTemporariesOfGoneProcesses(in folder: String) {
        removeTemporaries(in: folder) { owner in owner.pid != getpid() && isGone(owner.pid) }
    }

    /// Removes the entries of `folder` with a temporary name whose owner `abandoned` accepts.
    private static func removeTemporaries(in folder: String, where abandoned: ((file: String, pid: Int32)) -> Bool) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let owner = temporaryOwner(ofName: entry), abandoned(owner) else { continue }
            unlink("\(folder)/\(entry)")
        }
    }

    /// Whether no process `pid` runs on this host.
    private static func isGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }
}
