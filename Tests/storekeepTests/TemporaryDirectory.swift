import Foundation

/// A fresh directory under the system temporary directory, for files a test needs.
struct TemporaryDirectory: Sendable {
    /// The directory.
    let url: URL

    /// Creates a new empty directory.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeep-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to a file named `name` in the directory and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
