import Foundation

/// Peers of the Speech Timer model in one temporary folder, driven through the real binary:
/// `init`, `apply`, `sync`, `digest`.
struct SyncPeers {
    let directory: TemporaryDirectory
    let container: String
    let names: [String]

    private init(directory: TemporaryDirectory, names: [String]) {
        self.directory = directory
        container = directory.url.appendingPathComponent("container").path
        self.names = names
    }

    /// A copy of these peers and their container in a new folder (stores, blob folders, logs):
    /// a test that stops a command at every point starts each attempt from the same state without
    /// building it again.
    func copy() throws -> SyncPeers {
        let target = try TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            try FileManager.default.copyItem(at: directory.url.appendingPathComponent(name), to: target.url.appendingPathComponent(name))
        }
        return SyncPeers(directory: target, names: names)
    }

    /// These peers and the stores `added` (made in the same folder by other means), as one set.
    init(adding added: [String], to peers: SyncPeers) {
        self.init(directory: peers.directory, names: (added + peers.names).sorted())
    }

    init(_ names: [String]) throws {
        directory = try TemporaryDirectory()
        container = directory.url.appendingPathComponent("container").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        self.names = names
        for name in names {
            let result = try StorekeepProcess.run(["init", store(name), "--model", ModelFiles.speechTimer,
                                                   "--content-name", "SpeechTimer", "--peer-id", name])
            guard result.status == 0 else { throw StorekeepProcess.HarnessError(description: "init \(name): \(result)") }
        }
    }

    /// Peers `names` whose first two each published `rounds` logs of one speech, every log
    /// imported by every peer.
    static func exchanging(_ names: [String] = ["A", "B"], rounds: Int) throws -> SyncPeers {
        let peers = try SyncPeers(names)
        for round in 0..<rounds {
            for name in names.prefix(2) {
                guard try peers.apply(name, [SpeechLines.speech("\(name)\(round)", title: "\(name) \(round)")]).status == 0,
                      try peers.sync(name).status == 0 else { throw StorekeepProcess.HarnessError(description: "round \(round) on \(name) failed") }
            }
        }
        guard try peers.syncUntilQuiet() <= 3 else { throw StorekeepProcess.HarnessError(description: "the peers did not converge") }
        return peers
    }

    func store(_ name: String) -> String { directory.url.appendingPathComponent("\(name).store").path }

    /// `storekeep apply` of `lines` on peer `name`.
    @discardableResult
    func apply(_ name: String, _ lines: [String], author: String = "app") throws -> ProcessResult {
        let file = try directory.write(lines.joined(separator: "\n") + "\n", to: "\(name)-\(UUID().uuidString).jsonl")
        return try StorekeepProcess.run(["apply", store(name), file, "--author", author])
    }

    /// `storekeep sync` of peer `name`.
    @discardableResult
    func sync(_ name: String, _ extra: [String] = []) throws -> ProcessResult {
        try StorekeepProcess.run(["sync", store(name), "--container", container] + extra, timeout: 120)
    }

    /// The content digest of peer `name`.
    func digest(_ name: String) throws -> String {
        let result = try StorekeepProcess.run(["digest", store(name), "--json"])
        return (try result.jsonObject()["digest"] as? String) ?? "?"
    }

    /// Syncs every peer, round after round, until a whole round moves nothing.
    func syncUntilQuiet(maxRounds: Int = 8) throws -> Int {
        for round in 1...maxRounds {
            var moved = false
            for name in names {
                let result = try sync(name, ["--json"])
                let document = try result.jsonObject()
                if (document["exportedTransactions"] as? Int ?? 0) > 0 || !((document["importedTransactions"] as? [String: Any]) ?? [:]).isEmpty {
                    moved = true
                }
            }
            if !moved { return round }
        }
        return maxRounds + 1
    }

    /// The log folder of peer `name` in the container.
    func logFolder(_ name: String) throws -> URL {
        let content = URL(fileURLWithPath: container).appendingPathComponent("SpeechTimer")
        let hash = try FileManager.default.contentsOfDirectory(atPath: content.path).first { !$0.hasPrefix(".") } ?? ""
        return content.appendingPathComponent(hash).appendingPathComponent("peers/\(name)/logs")
    }

    /// The log files of peer `name`, sorted.
    func logs(_ name: String) throws -> [URL] {
        let folder = try logFolder(name)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sklog") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }
}

/// JSON lines for the Speech Timer model.
enum SpeechLines {
    static func type(_ id: String, _ name: String, green: Int = 60) -> String {
        #"{"op":"insert","entity":"SpeechType","id":"\#(id)","values":{"name":"\#(name)","greenSeconds":\#(green)}}"#
    }

    static func speech(_ id: String, title: String, type: String? = nil) -> String {
        let toOne = type.map { #","toOne":{"type":"\#($0)"}"# } ?? ""
        return #"{"op":"insert","entity":"Speech","id":"\#(id)","values":{"title":"\#(title)","date":"2026-11-25T10:00:00Z","duration":30.5}\#(toOne)}"#
    }

    static func retitle(_ id: String, _ title: String) -> String {
        #"{"op":"update","record":"\#(id)","values":{"title":"\#(title)"}}"#
    }

    static func delete(_ id: String) -> String { #"{"op":"delete","record":"\#(id)"}"# }
}
