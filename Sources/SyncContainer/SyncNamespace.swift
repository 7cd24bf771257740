import Foundation
import ObjectModel

/// One namespace of a container: a content name and a model version hash
/// (`<container>/<content name>/<model hash>/`), holding one folder per peer.
///
/// A peer writes only inside its own folder: its manifest, replaced whole, and its log files,
/// published once and never changed. Any number of peers may read and write at the same time.
/// Every file is read and written through ``storage`` (a folder of the file system today).
public struct SyncNamespace: Sendable {
    /// The container folder.
    public let container: String
    /// The content name.
    public let contentName: String
    /// The model version hash.
    public let modelHash: String
    /// Where the container's files are kept.
    public let storage: any ContainerStorage

    /// The namespace `contentName`/`modelHash` of the container `container`, kept in `storage`.
    public init(container: String, contentName: String, modelHash: String, storage: any ContainerStorage = FolderStorage()) {
        self.container = container
        self.contentName = contentName
        self.modelHash = modelHash
        self.storage = storage
    }

    /// The namespace's folder.
    public var path: String { "\(container)/\(contentName)/\(modelHash)" }
    /// The folder of peer `peer`.
    public func peerFolder(_ peer: String) -> String { "\(path)/peers/\(peer)" }
    /// The log folder of peer `peer`.
    public func logFolder(_ peer: String) -> String { "\(peerFolder(peer))/logs" }
    /// The manifest of peer `peer`.
    public func manifestPath(_ peer: String) -> String { "\(peerFolder(peer))/manifest.json" }

    /// The peers with a folder here, sorted (folder names that are not valid peer IDs are left out).
    public func peers() throws -> [String] {
        try storage.list("\(path)/peers").filter(SyncName.isValid).sorted()
    }

    /// The manifest of `peer`, or `nil` when it has none yet.
    ///
    /// - Throws: ``ContainerError`` `damagedManifest` when it exists but cannot be read.
    public func manifest(of peer: String) throws -> PeerManifest? {
        let path = manifestPath(peer)
        guard let data = try storage.read(path) else { return nil }
        guard let manifest = try? JSONDecoder().decode(PeerManifest.self, from: data) else {
            throw ContainerError(.damagedManifest, path: path, message: "is not a readable peer manifest",
                                 hint: "the peer rewrites it on its next sync; until then it counts as not having imported anything")
        }
        guard manifest.peer == peer, manifest.contentName == contentName, manifest.modelHash == modelHash else {
            throw ContainerError(.damagedManifest, path: path, message: "belongs to peer \(manifest.peer) in \(manifest.contentName)/\(manifest.modelHash.prefix(12)), not here",
                                 hint: "a file was copied into the wrong folder; remove it")
        }
        return manifest
    }

    /// Publishes `manifest` (its peer's), replacing the one before.
    public func write(_ manifest: PeerManifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try storage.write(try encoder.encode(manifest), to: manifestPath(manifest.peer), replacing: true)
    }

    /// The log files of `peer`, in sequence order, and the names in its log folder that are not
    /// log names (reported, never read). Temporary files of a write in progress are left out.
    public func logs(of peer: String) throws -> (logs: [LogName], strangers: [String]) {
        var logs: [LogName] = []
        var strangers: [String] = []
        for name in try storage.list(logFolder(peer)) where !name.hasPrefix(".") {
            if let log = LogName(fileName: name) { logs.append(log) } else { strangers.append(name) }
        }
        return (logs.sorted(), strangers.sorted())
    }

    /// Publishes a log of `header.peer`'s transactions: written under a temporary name, fsynced,
    /// then given its name only if no file has it, and the folder fsynced.
    ///
    /// - Returns: the file's path.
    @discardableResult
    public func publishLog(header: LogHeader, body: [UInt8]) throws -> String {
        let path = logPath(LogName(first: header.firstSequence, last: header.lastSequence), of: header.peer)
        // Written part by part: a log is as large as its changes, and joining the parts would copy it.
        let file = try LogFile.frame(header: header, body: body)
        try storage.write(to: path, replacing: false) { sink in
            for part in [file.prefix, file.stored, file.trailer] { try part.withUnsafeBytes { try sink($0) } }
        }
        return path
    }

    /// The path of `peer`'s log `name`.
    public func logPath(_ name: LogName, of peer: String) -> String {
        "\(logFolder(peer))/\(name.fileName)"
    }

    /// What identifies the present state of `peer`'s log `name` (``ContainerStorage/fileIdentity(_:)``),
    /// or `nil` when it is missing or the storage cannot tell.
    public func logIdentity(_ name: LogName, of peer: String) -> String? {
        storage.fileIdentity(logPath(name, of: peer))
    }

    /// Reads and checks a log of `peer`: its checksum, and that its header says it is this
    /// namespace's, this peer's, and holds the range its name says. With `decodingBody` false the
    /// body is not decompressed and comes back empty (a check that the file is whole).
    ///
    /// - Throws: ``ContainerError`` `damagedLog` or `foreignLog`.
    public func readLog(_ name: LogName, of peer: String, decodingBody: Bool = true) throws -> (LogHeader, [UInt8]) {
        let path = logPath(name, of: peer)
        guard let bytes = try storage.readBytes(path) else {
            throw ContainerError(.missingLog, path: path, message: "is gone", hint: "another peer's archive may have removed it; run sync again")
        }
        let (header, body) = try LogFile.decode(bytes, path: path, decodingBody: decodingBody)
        var wrong: [String] = []
        if header.contentName != contentName { wrong.append("content name \(header.contentName), not \(contentName)") }
        if header.modelHash != modelHash { wrong.append("model hash \(header.modelHash.prefix(12)), not \(modelHash.prefix(12))") }
        if header.peer != peer { wrong.append("peer \(header.peer), not \(peer)") }
        if header.firstSequence != name.first || header.lastSequence != name.last {
            wrong.append("transactions \(header.firstSequence)–\(header.lastSequence), not \(name.first)–\(name.last)")
        }
        guard wrong.isEmpty else {
            throw ContainerError(.foreignLog, path: path, message: "does not belong here: its header says \(wrong.joined(separator: "; "))",
                                 hint: "a file was copied or renamed into this folder; move it away, and the peer it belongs to will publish its transactions again")
        }
        return (header, body)
    }

    /// Other namespaces of the same content name (other model hashes) and their peers.
    public func otherModels() throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for hash in try storage.list("\(container)/\(contentName)") where hash != modelHash && Self.isModelHash(hash) {
            let other = SyncNamespace(container: container, contentName: contentName, modelHash: hash, storage: storage)
            result[hash] = (try? other.peers()) ?? []
        }
        return result
    }

    /// Whether `name` is a model version hash (64 lowercase hex digits): a namespace folder's name.
    static func isModelHash(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Creates `folder` and its parents, fsyncing each new one's parent so the new names are durable.
    public static func makeFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw ContainerError(.unusableContainer, path: folder, message: "is a file where the container needs a folder", hint: "move the file away")
            }
            return
        }
        let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        try makeFolder(parent)
        if mkdir(folder, 0o755) != 0, errno != EEXIST {
            let code = errno
            throw ContainerError(code == ENOSPC ? .diskFull : .io, path: folder, message: "cannot be created: \(String(cString: strerror(code)))",
                                 hint: "check the container's permissions and free space")
        }
        DurableFile.syncFolder(parent)
    }
}
