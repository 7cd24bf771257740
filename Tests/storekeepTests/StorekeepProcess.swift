import Foundation

/// Runs the built `storekeep` binary the way an operator would, for end-to-end tests.
///
/// The binary is `<package root>/.build/debug/storekeep` (run `swift build` first), or the
/// path in the `STOREKEEP_BINARY` environment variable. Each run gets a clean environment
/// (no inherited `STOREKEEP_*` variables) plus the variables the test passes, runs in a
/// temporary directory unless told otherwise, and is killed after a timeout.
///
/// ```swift
/// let result = try StorekeepProcess.run(["version", "--json"])
/// #expect(result.status == 0)
/// let document = try result.jsonObject()
/// ```
enum StorekeepProcess {
    /// Why a run could not happen or did not finish.
    struct HarnessError: Error, CustomStringConvertible {
        /// What went wrong.
        var description: String
    }

    /// The package root, found from this file's location.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // storekeepTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
    }

    /// The binary under test.
    ///
    /// - Throws: ``HarnessError`` saying to run `swift build` when the binary is missing.
    static func binaryURL() throws -> URL {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["STOREKEEP_BINARY"], !override.isEmpty {
            url = URL(fileURLWithPath: override)
        } else {
            url = packageRoot.appendingPathComponent(".build/debug/storekeep")
        }
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw HarnessError(
                description: "storekeep binary not found at \(url.path): run `swift build` first "
                    + "(or set STOREKEEP_BINARY)")
        }
        return url
    }

    /// Runs `storekeep` with `arguments` and waits for it.
    ///
    /// - Parameters:
    ///   - environment: variables added to a minimal environment (`PATH`, `HOME`).
    ///   - directory: the working directory; a fresh temporary one (removed afterwards) if `nil`.
    ///   - timeout: seconds before the process is killed and the run fails.
    /// - Throws: ``HarnessError`` when the binary is missing or the run times out.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        in directory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        try run(executable: binaryURL(), arguments, environment: environment, in: directory, timeout: timeout)
    }

    /// Runs the program at `executable` with `arguments` (as ``run(_:environment:in:timeout:)``
    /// runs storekeep: a minimal environment plus `environment`) and waits for it.
    ///
    /// - Throws: ``HarnessError`` when the run times out.
    static func run(
        executable binary: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        in directory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let stdoutURL = scratch.url.appendingPathComponent("stdout")
        let stderrURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? scratch.url
        process.environment = baseEnvironment().merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            throw HarnessError(
                description: "\(binary.lastPathComponent) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        try stdoutHandle.close()
        try stderrHandle.close()
        return ProcessResult(
            arguments: arguments,
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
    }

    /// `PATH` and `HOME` from the test process; nothing else, so that no `STOREKEEP_*` leaks in.
    private static func baseEnvironment() -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment: [String: String] = [:]
        for name in ["PATH", "HOME"] {
            environment[name] = inherited[name]
        }
        return environment
    }
}
