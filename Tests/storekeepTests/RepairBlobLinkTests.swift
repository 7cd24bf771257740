import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `repair` of a store whose blob folder holds symbolic links to files and folders outside the
/// store's folder: the backup copies none of them and lists each; what the links point at is never
/// read, copied or removed (only an old link itself is removed, as any stray). The built binary,
/// real links.
@Suite("repair: symbolic links in the blob folder are never followed")
struct RepairBlobLinkTests {
    /// Sets the modification time of `path` itself (not of what a link points at) to an hour ago.
    static func makeOld(_ path: String) {
        var times = [timespec(tv_sec: Int(Date().timeIntervalSince1970) - 3_600, tv_nsec: 0),
                     timespec(tv_sec: Int(Date().timeIntervalSince1970) - 3_600, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    @Test("the backup leaves links out and lists them; the targets outside stay as they were")
    func linksInBlobFolder() throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        let secret = outside.url.appendingPathComponent("secret.txt").path
        let dir = outside.url.appendingPathComponent("dir").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: secret))
        try Data("inside".utf8).write(to: URL(fileURLWithPath: dir + "/old.txt"))
        Self.makeOld(secret)
        Self.makeOld(dir + "/old.txt")

        let store = try w.store()
        let blobs = store + ".blobs"
        try FileManager.default.createDirectory(atPath: blobs + "/ab", withIntermediateDirectories: true)
        // A stray file old enough to remove: the plan changes something, so a backup is made.
        try Data("stray".utf8).write(to: URL(fileURLWithPath: blobs + "/stray.txt"))
        let linkedBlob = blobs + "/ab/ab" + String(repeating: "0", count: 62)
        try FileManager.default.createSymbolicLink(atPath: linkedBlob, withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(atPath: blobs + "/ee", withDestinationPath: dir)
        for path in [blobs + "/stray.txt", linkedBlob, blobs + "/ee"] { Self.makeOld(path) }

        let repair = try StorekeepProcess.run(["repair", store, "--json"])
        #expect([0, 1].contains(repair.status), "\(repair)")
        let report = try repair.jsonObject()
        let backup = try #require(report["backup"] as? String, "\(repair)")
        let leftOut = report["backupLeftOut"] as? [String] ?? []
        #expect(leftOut.contains { $0.hasPrefix(linkedBlob) && $0.contains("symbolic link") }, "\(leftOut)")
        #expect(leftOut.contains { $0.hasPrefix(blobs + "/ee") && $0.contains("symbolic link") }, "\(leftOut)")
        // The backup holds no link and nothing from outside.
        let copied = FileManager.default.enumerator(atPath: backup + ".blobs")?.compactMap { $0 as? String } ?? []
        for entry in copied {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: backup + ".blobs/" + entry)) == nil, "\(entry) is a link")
            #expect(!entry.contains("old.txt") && (try? String(contentsOfFile: backup + ".blobs/" + entry, encoding: .utf8)) != "secret", "\(entry)")
        }
        // What the links point at is untouched.
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "secret")
        #expect(try String(contentsOfFile: dir + "/old.txt", encoding: .utf8) == "inside")

        let text = try StorekeepProcess.run(["repair", store, "--dry-run"])
        #expect(!text.stdout.contains("old.txt"), "the linked folder was walked: \(text)")
    }
}
