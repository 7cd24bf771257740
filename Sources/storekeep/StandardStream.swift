import Foundation

/// The process's stdout and stderr, written without buffering so that output is complete and in
/// order even when the process exits right after.
enum StandardStream: Sendable {
    /// stdout: command results only.
    case output
    /// stderr: logs, errors and hints.
    case error

    /// Writes `text` as UTF-8, adding a newline when it does not end with one.
    func write(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        let handle: FileHandle = self == .output ? .standardOutput : .standardError
        handle.write(Data(line.utf8))
    }
}
