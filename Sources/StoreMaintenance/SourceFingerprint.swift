import Foundation
import ObjectModel

/// What identifies a source file's content cheaply: its size and the SHA-256 of its first and last
/// 64 KiB (a changed source almost always changes one of them; an unchanged one never does).
enum SourceFingerprint {
    /// The fingerprint of the file at `path`, mixed with `extra` (for example a store's UUID).
    static func of(path: String, extra: String = "") throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MaintenanceError(path: path, problem: "cannot read the source", hint: "check the path and permissions", failureKind: .missingInput)
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        var hasher = SHA256()
        hasher.update("size \(size)\n\(extra)\n")
        try? handle.seek(toOffset: 0)
        hasher.update((try? handle.read(upToCount: 65_536)) ?? Data())
        if size > 131_072 {
            try? handle.seek(toOffset: size - 65_536)
            hasher.update((try? handle.read(upToCount: 65_536)) ?? Data())
        }
        return hasher.finalizeHex()
    }
}
