import Foundation

extension DurableFile {
    /// The steps of a durable write that an observer sees (``observeSteps(_:)``).
    public enum Step: String, Sendable {
        /// One part of a file written piece by piece (an entry of an archive) is in its temporary file.
        case partWritten = "file.partWritten"
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

    /// Tells the observer, if any, that `step` of the durable write of `path` is reached: for the
    /// steps only the writer knows (an archive's entries, ``Step/partWritten``), so that a writer
    /// through ``publish(_:as:replacing:)`` is stopped at the same places as the others.
    public static func reach(_ step: Step, path: String) throws {
        observerLock.lock()
        let current = observer
        observerLock.unlock()
        try current?(step, path)
    }
}
