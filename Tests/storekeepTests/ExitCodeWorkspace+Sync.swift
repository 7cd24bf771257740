import Foundation

/// Peers, containers, logs and archives for the exit-code cases of `sync`, `apply`, `rekey`,
/// `archive` and `peers`.
extension ExitCodeWorkspace {
    /// The container folder `name`, created.
    func container(_ name: String = "container") throws -> String {
        let folder = path(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs the binary and fails the setup unless it succeeds.
    @discardableResult
    func succeed(_ arguments: [String]) throws -> ProcessResult {
        let result = try StorekeepProcess.run(arguments)
        guard result.status == 0 else { throw StorekeepProcess.HarnessError(description: "setup failed: \(result)") }
        return result
    }

    /// A Speech Timer peer `peer` of content name `speeches` (model version `version`, default the current one).
    func peer(_ peer: String, version: String? = nil) throws -> String {
        let store = path("\(peer).store")
        try succeed(["init", store, "--model", speechTimerModel, "--content-name", "speeches", "--peer-id", peer]
            + (version.map { ["--model-version", $0] } ?? []))
        return store
    }

    /// `storekeep apply` of `lines` on `store`.
    func apply(_ store: String, _ lines: [String]) throws {
        let file = try write("\(UUID().uuidString).jsonl", lines.joined(separator: "\n") + "\n")
        try succeed(["apply", store, file])
    }

    /// A speech type insert line.
    static func typeLine(_ id: String) -> String {
        #"{"op":"insert","entity":"SpeechType","id":"\#(id)","values":{"name":"\#(id)","greenSeconds":60}}"#
    }

    /// Peer A with one published log in `container`; returns A's store and the log file.
    func publishedLog(in container: String) throws -> (store: String, log: String) {
        let store = try peer("A")
        try apply(store, [Self.typeLine("T1")])
        try succeed(["sync", store, "--container", container])
        let folder = URL(fileURLWithPath: container).appendingPathComponent("speeches")
        guard let log = FileManager.default.enumerator(atPath: folder.path)?.compactMap({ $0 as? String }).first(where: { $0.hasSuffix(".sklog") }) else {
            throw StorekeepProcess.HarnessError(description: "no log was published")
        }
        return (store, folder.appendingPathComponent(log).path)
    }

    /// An archive of A's and B's logs (both imported by both).
    func archive(in container: String) throws -> String {
        let a = try peer("A"), b = try peer("B")
        try apply(a, [Self.typeLine("T1")])
        try apply(b, [Self.typeLine("T2")])
        for store in [a, b, a] { try succeed(["sync", store, "--container", container]) }
        let report = try succeed(["archive", a, "--container", container, "--json"]).jsonObject()
        guard let archive = report["archive"] as? String else { throw StorekeepProcess.HarnessError(description: "no archive: \(report)") }
        return archive
    }
}
