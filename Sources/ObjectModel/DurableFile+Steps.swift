import Foundation

extension DurableFile {
    /// The steps of a durable write that an observer sees (``observeSteps(_:)``).
    public enum Step: String, Sendable {
        /// The bytes are in the temporary file, fsynced; the file has not its name yet.
        case temporaryWritten = "file.temporaryWritten"
        /// The file has its name; its folder is not fsynced yet.
        case published = "file.published"
    }

    private static let observerLock = NSLock()
    nonisolated(unsafe) private static var observer: (@Sendable (Step, String) throws -> Void)?

    /// Installs `observer`, called at each ``Step`` of every durable write with the file's path:
    /// the hook kill-safety tests stop a process at (``DurableFile`` knows nothing else of them).
    /// An error it throws ends the write there, leaving the files as a kill would.
    public static func observeSteps(_ observer: @escaping @Sendable (Step, String) throws -> Void) {
        observerLock.lock()
        self.observer = observer
        observerLock.unlock()
    }

    /// Tells the observer, if any, that `step` of the write of `path` is reached.
    static func reach(_ step: Step, path: String) throws {
        observerLock.lock()
        let current = observer
        observerLock.unlock()
        try current?(step, path)
    }
}
