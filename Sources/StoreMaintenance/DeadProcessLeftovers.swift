import Foundation

/// Files a killed command left beside a store under temporary names that carry its process ID
/// (`.NAME.account-<pid>.store`, `.NAME.building-<pid>`, …).
enum DeadProcessLeftovers {
    /// Removes the entries of `folder` that start with one of `prefixes` followed by the ID of a
    /// process that no longer runs (never this process's own).
    static func remove(in folder: String, prefixes: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in names {
            guard let prefix = prefixes.first(where: { entry.hasPrefix($0) }) else { continue }
            let digits = entry.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(digits), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: "\(folder)/\(entry)")
        }
    }

    /// The path `.<store's file name>.<kind>-<pid>` beside the store at `storePath`, for a scratch
    /// file or folder of this process, once those that processes no longer running left under the
    /// same kind are removed.
    static func scratchPath(beside storePath: String, kind: String) -> String {
        let store = URL(fileURLWithPath: storePath)
        let folder = store.deletingLastPathComponent().path
        let prefix = ".\(store.lastPathComponent).\(kind)-"
        remove(in: folder, prefixes: [prefix])
        return "\(folder)/\(prefix)\(getpid())"
    }
}
