import Foundation
import Testing

/// Issue 19, point 5: one way to do each durable thing. These scan `Sources/` and fail when a
/// second way appears: an fsync or rename outside ``DurableFile``, a SQLite header check outside
/// `FileContent`, a name rule outside `SyncName`, a local transaction numbered outside `HistoryCounters`.
@Suite("one way to do each durable thing (a scan of Sources/)")
struct OneWaySourceScanTests {
    /// What may appear only in the files listed (paths relative to `Sources/`).
    static let rules: [(pattern: String, allowed: Set<String>, why: String)] = [
        ("fsync(", ["ObjectModel/DurableFile.swift",
                    // The lock file is created exclusively where it stands (a draft linked, or O_EXCL),
                    // never renamed over, and tolerates file systems that cannot fsync: a lock, not a published file.
                    "StoreMaintenance/StoreLock.swift"], "write files through DurableFile"),
        ("rename(", ["ObjectModel/DurableFile.swift"], "use DurableFile.publish or DurableFile.move"),
        (".moveItem(", [], "use DurableFile.move"),
        ("replaceItem", [], "use DurableFile.write or DurableFile.publish"),
        ("atomically:", [], "use DurableFile.write (fsynced, unlike Foundation's atomic write)"),
        (".atomic", [], "use DurableFile.write (fsynced, unlike Foundation's atomic write)"),
        ("SQLite format 3", ["ObjectModel/FileContent.swift"], "use FileContent.isSQLite"),
        ("isValidName", [], "use SyncName.isValid"),
        ("ASCII letters, digits", ["ObjectModel/SyncName.swift"], "use SyncName.rule"),
        ("INSERT INTO sk_transaction", ["SyncStore/Sync/HistoryCounters.swift",
                                        // Another peer's transactions keep the numbers their peer gave them.
                                        "SyncStore/Sync/RemoteTransactionApplier.swift"], "number local transactions with HistoryCounters"),
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    @Test("each pattern appears only where it is allowed")
    func scan() throws {
        let root = Self.sources.path
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "Sources/ is where it should be: \(root)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for rule in Self.rules where !rule.allowed.contains(file) {
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(rule.pattern) {
                    found.append("Sources/\(file):\(number + 1): '\(rule.pattern)': \(rule.why)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
