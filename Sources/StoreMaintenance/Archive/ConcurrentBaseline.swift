import Foundation
import SyncContainer
import SyncStore

/// The baseline an archive leaves for new peers: one that exists already, or a snapshot baseline
/// written on another thread while the archive is written. Its work is always waited for, also
/// when the archive fails, so that the snapshot's read transaction never outlives the command.
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

    deinit {
        if !waited { done.wait() }
    }

    /// The baseline's path once it is written, read back and checked; the writer's error otherwise.
    func path() throws -> String {
        if !waited {
            done.wait()
            waited = true
        }
        return try result.get()
    }
}
