import Foundation
import SyncStore

/// What `sync` found sound among a peer's own logs, kept in the store (a local note): per log
/// path, the file's identity when it was last read whole and found sound (`ContainerStorage`'s
/// `fileIdentity`: device, inode, size, change and modification times) and when.
///
/// A peer checks its own logs that another peer still needs on every `sync`, and writes a damaged
/// one again. Read whole each time, that made every `sync` cost as much as the history some silent
/// peer has not imported; a log whose identity has not changed since it was found sound is not
/// read again until ``recheckAfter`` has passed (a file written, replaced or copied over gets
/// another identity; what no write explains, the disk's own decay, waits at most that long).
/// A note that is missing or unreadable only means every log is read again.
struct OwnLogChecks {
    /// The name of the store's local note.
    static let noteName = "sync.ownLogChecks"
    /// How long a log found sound is trusted without reading it again while it stays the same.
    static let recheckAfter: TimeInterval = 7 * 24 * 3600

    /// One log found sound.
    private struct Entry: Codable, Equatable {
        /// The file's identity when it was read.
        var identity: String
        /// When it was read (seconds since 1970).
        var checked: Double
    }

    private var entries: [String: Entry]
    /// Whether anything changed since the note was read.
    private(set) var changed = false

    /// The checks kept in `note` (none when it is missing or not one).
    init(note: String?) {
        entries = note.flatMap { try? JSONDecoder().decode([String: Entry].self, from: Data($0.utf8)) } ?? [:]
    }

    /// Whether the log at `path`, whose identity is now `identity`, was found sound with that same
    /// identity less than ``recheckAfter`` before `now` (and not after it: a clock set back reads again).
    func isKnownSound(_ path: String, identity: String, now: Date) -> Bool {
        guard let entry = entries[path], entry.identity == identity else { return false }
        let age = now.timeIntervalSince1970 - entry.checked
        return age >= 0 && age < Self.recheckAfter
    }

    /// Records that the log at `path` was read whole and found sound, with identity `identity`, at `now`.
    mutating func recordSound(_ path: String, identity: String, now: Date) {
        let entry = Entry(identity: identity, checked: now.timeIntervalSince1970)
        guard entries[path] != entry else { return }
        entries[path] = entry
        changed = true
    }

    /// Forgets every log but those at `paths` (removed, archived, or no longer needed).
    mutating func keepOnly(_ paths: Set<String>) {
        let before = entries.count
        entries = entries.filter { paths.contains($0.key) }
        if entries.count != before { changed = true }
    }

    /// The note to keep, or `nil` when there is nothing to keep.
    func note() throws -> String? {
        guard !entries.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(entries), as: UTF8.self)
    }
}
