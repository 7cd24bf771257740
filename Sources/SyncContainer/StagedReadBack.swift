import Foundation

/// Reads staged files back and checks their SHA-256 on another thread, one after another, while
/// the restore goes on decompressing the next entries; ``firstMismatch()`` waits for them all.
final class StagedReadBack: @unchecked Sendable {
    private let storage: any ContainerStorage
    private let queue = DispatchQueue(label: "storekeep.archive.read-back")
    // Touched only on `queue`.
    private var mismatch: (entry: String, problem: String)?

    /// A checker reading through `storage`.
    init(storage: any ContainerStorage) { self.storage = storage }

    /// Queues the check that the staged `file` (of the archive's `entry`) holds bytes of SHA-256 `expected`.
    func check(_ file: String, entry: String, expected: String) {
        queue.async { [self] in
            guard mismatch == nil else { return }
            do {
                switch try LogArchive.checksum(of: file, in: storage) {
                case nil: mismatch = (entry, "was written, and is gone before it was published")
                case let sha? where sha != expected:
                    mismatch = (entry, "does not match its checksum as written (the entry is damaged, or the disk did not keep it)")
                default: break
                }
            } catch {
                mismatch = (entry, "was written and cannot be read back: \(error)")
            }
        }
    }

    /// Waits for every queued check; the first that failed, if any.
    func firstMismatch() -> (entry: String, problem: String)? {
        queue.sync { mismatch }
    }
}
