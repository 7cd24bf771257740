import Foundation

/// Work run on another thread while the caller goes on (a file fsynced while it is read back; a
/// file hashed while the kernel copies it), waited for before its results are used.
final class BackgroundWork: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the background thread before it signals `done`, read after `wait` returns.
    private var failure: (any Error)?

    /// Starts `work`; whatever it touches the caller leaves alone until ``wait()`` returns.
    init(_ work: @escaping () throws -> Void) {
        nonisolated(unsafe) let work = work
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            do { try work() } catch { failure = error }
            done.signal()
        }
    }

    /// Waits for the work to end; rethrows its failure.
    func wait() throws {
        done.wait()
        if let failure { throw failure }
    }
}
