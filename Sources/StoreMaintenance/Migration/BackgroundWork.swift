import Foundation

/// One piece of work run on a thread of its own while the caller goes on, its result (or error)
/// collected with ``wait()``.
///
/// ```swift
/// let digest = BackgroundWork { try reader.contentDigest() }
/// try store.buildPendingIndexes()       // meanwhile, on this thread
/// let content = try digest.wait()
/// ```
final class BackgroundWork<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the work's thread before `done` is signalled; read after waiting on it.
    private var result: Result<Value, any Error>?
    private let failure = NSLock()
    private var failedFlag = false

    /// Starts `work` on a new thread.
    init(name: String = "storekeep.background", _ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            if case .failure = outcome { failure.withLock { failedFlag = true } }
            result = outcome
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Whether the work has ended with an error (without waiting: `false` while it runs).
    var hasFailed: Bool { failure.withLock { failedFlag } }

    /// Waits for the work to end; returns its value or rethrows its error. Call once.
    func wait() throws -> Value {
        done.wait()
        guard let result else { preconditionFailure("BackgroundWork signalled without a result") }
        return try result.get()
    }
}
