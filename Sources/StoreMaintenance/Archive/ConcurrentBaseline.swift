import Foundation
import SyncContainer
import SyncStore

/// The baseline an archive leaves for new peers: one that exists already, or a snapshot baseline
/// written on another thread while the archive is written. Its owner waits for it on every way out
/// (``waitUntilDone()`` in a `defer`), also when the archive fails, so that the writing thread and
/// the snapshot's read transaction never outlive the command: a thread still hashing while the
/// process exits crashes in libcrypto's cleanup. (A `deinit` cannot do it: the writing thread holds
/// the object until it ends.)
final class ConcurrentBaseline: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Set by the writing thread before it signals `done`; read after the wait.
    private var result: Result<String, any Error>
    private var waited = false

    /// The baseline at `path`, already in the namespace.
    init(existing path: String) {
        result = .success(path)
        done.signal()
    }

    /// Starts writing a snapshot baseline of `store` into `namespace`.
    init(publishing store: SyncStore, into namespace: SyncNamespace) {
        result = .failure(CancellationError())
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = Result {
                let published = try SnapshotBaselines.publish(of: store, into: namespace, reason: "archive")
                return "\(namespace.baselineFolder)/\(published.name)"
            }
            done.signal()
        }
    }

    /// Waits for the writer to end, however it ends.
    func waitUntilDone() {
        guard !waited else { return }
        done.wait()
        waited = true
    }

    /// The baseline's path once it is written, read back and checked; the writer's error otherwise.
    func path() throws -> String {
        waitUntilDone()
        return try result.get()
    }
}
