import Foundation

/// One piece of work run on a thread of its own while the caller goes on, its result (or error)
/// collected with ``wait()``.
///
/// ``wait()`` joins the thread: once it returns, the thread has ended and released what the work
/// captured. That matters on the way out of the process: a thread still running (hashing, say)
/// while an error ends the process meets libraries being torn down (OpenSSL frees its locks at exit).
///
/// A file fsynced while it is read back, a file hashed while the kernel copies it, a baseline
/// written while an archive is: whatever the work touches, the caller leaves alone until ``wait()``
/// returns.
///
/// ```swift
/// let digest = BackgroundWork { try reader.contentDigest() }
/// try load.buildIndexes()               // meanwhile, on this thread
/// let content = try digest.wait()
/// ```
public final class BackgroundWork<Value>: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var result: Result<Value, any Error>?
    private var thread: pthread_t?

    /// Starts `work` on a new thread (or, when the system refuses a thread, runs it here and now).
    public init(name: String = "storekeep.background", _ work: @escaping @Sendable () throws -> Value) {
        let body = ThreadBody { [self] in
            Thread.current.name = name
            let outcome = Result { try work() }
            lock.withLock { result = outcome }
        }
        let retained = Unmanaged.passRetained(body)
        #if canImport(Glibc)
        var handle = pthread_t()
        #else
        var handle: pthread_t?
        #endif
        if pthread_create(&handle, nil, { runThreadBody($0) }, retained.toOpaque()) == 0 {
            lock.withLock { thread = handle }
        } else {
            retained.takeRetainedValue().run()
        }
    }

    /// Whether the work has ended with an error (without waiting: `false` while it runs).
    public var hasFailed: Bool {
        lock.withLock {
            if case .failure? = result { return true }
            return false
        }
    }

    /// Waits for the work's thread to end; returns its value or rethrows its error (again, when
    /// waited for again).
    public func wait() throws -> Value {
        let handle: pthread_t? = lock.withLock {
            defer { thread = nil }
            return thread
        }
        if let handle { pthread_join(handle, nil) }
        guard let outcome = lock.withLock({ result }) else { throw CancellationError() }
        return try outcome.get()
    }

    deinit {
        // Never waited for: the thread ends on its own (it holds this object until then).
        if let thread { pthread_detach(thread) }
    }
}

/// The closure a ``BackgroundWork`` thread runs (not generic, so that a C function can start it).
private final class ThreadBody: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}

/// The start routine of a ``BackgroundWork`` thread: runs, then releases, the ``ThreadBody``.
private func runThreadBody(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().run()
    return nil
}
