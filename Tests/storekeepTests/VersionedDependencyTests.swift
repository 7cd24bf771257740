import Foundation
import Testing

/// storekeep as another package depends on it: by version, from a git repository (a `file://`
/// URL of a tagged copy, which SwiftPM resolves like any remote package; a path dependency would
/// accept the unsafe flags such a package refuses). The consumer loads its model with
/// `XcodeModel`, creates a store with `SyncStore`, saves a record and reads it back.
@Suite("a package depending on storekeep by version")
struct VersionedDependencyTests {
    /// Runs `executable` (found on `PATH`, or a path) with `arguments` in `directory`; its
    /// standard output, or an error with its output and errors when it fails.
    @discardableResult
    private func run(_ executable: String, _ arguments: [String], in directory: URL, timeout: TimeInterval = 900) throws -> String {
        let result = try StorekeepProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"), [executable] + arguments,
                                              in: directory, timeout: timeout)
        guard result.status == 0 else {
            throw StorekeepProcess.HarnessError(
                description: "\(executable) \(arguments.joined(separator: " ")) exited \(result.status):\n\((result.stdout + result.stderr).suffix(4_000))")
        }
        return result.stdout
    }

    /// A git repository holding the package's tracked files as they are now, tagged 1.0.0.
    private func taggedCopy(in directory: URL) throws -> URL {
        let root = StorekeepProcess.packageRoot
        let copy = directory.appendingPathComponent("storekeep")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let tracked = try run("git", ["ls-files", "-z"], in: root).split(separator: "\0").map(String.init)
        #expect(tracked.contains("Package.swift"))
        for path in tracked where FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) {
            let target = copy.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(path), to: target)
        }
        try run("git", ["init", "-q"], in: copy)
        try run("git", ["add", "-A"], in: copy)
        try run("git", ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "release"], in: copy)
        try run("git", ["tag", "1.0.0"], in: copy)
        return copy
    }

    @Test("an app package builds against storekeep 1.0.0 from git, opens a store and saves a record")
    func appBuildsAgainstATaggedVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let repository = try taggedCopy(in: directory.url)
        let app = directory.url.appendingPathComponent("App")
        let sources = app.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [.package(url: "\(repository.absoluteString)", from: "1.0.0")],
                targets: [
                    .executableTarget(name: "App", dependencies: [
                        .product(name: "SyncStore", package: "storekeep"),
                        .product(name: "XcodeModel", package: "storekeep"),
                        .product(name: "ObjectModel", package: "storekeep"),
                    ]),
                ])
            """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
            import Foundation
            import ObjectModel
            import SyncStore
            import XcodeModel

            let arguments = CommandLine.arguments
            let model = try XcodeModelReader().readModel(at: URL(fileURLWithPath: arguments[2])).current
            let store = try SyncStore.create(at: arguments[1], model: model, contentName: "AppTest")
            try store.save(author: "app") { tx in
                try tx.insert("SpeechType", values: ["name": .string("Icebreaker"), "greenSeconds": .double(240),
                                                     "yellowSeconds": .double(300), "redSeconds": .double(360)])
            }
            let reopened = try SyncStore.open(at: arguments[1], expecting: model)
            print("records:", try reopened.recordDigestSum(of: "SpeechType").count)
            """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        try run("swift", ["build", "--product", "App"], in: app)
        let store = directory.url.appendingPathComponent("app.store").path
        let output = try run(app.appendingPathComponent(".build/debug/App").path, [store, ModelFiles.speechTimer], in: app)
        #expect(output.contains("records: 1"), "\(output)")
        let info = try StorekeepProcess.run(["info", store, "--json"]).jsonObject()
        #expect((info["entities"] as? [String: Int])?["SpeechType"] == 1)
        #expect(info["contentName"] as? String == "AppTest")
    }
}
