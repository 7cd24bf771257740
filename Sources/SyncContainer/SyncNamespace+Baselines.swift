import Foundation
import ObjectModel

extension SyncNamespace {
    /// The first eight bytes of every baseline file.
    public static let baselineSignature: [UInt8] = Array("SKBAS1\n\0".utf8)

    /// The folder of the namespace's baselines.
    public var baselineFolder: String { "\(path)/baselines" }

    /// The baseline files, oldest first (by what they cover).
    public func baselines() throws -> [String] {
        try storage.list(baselineFolder).filter { $0.hasSuffix(".skbase") && !$0.hasPrefix(".") }.sorted()
    }

    /// The header of a baseline, read without its body (nothing is checked but the signature):
    /// to decide whether it is the one wanted before reading it whole.
    public func baselineHeader(_ name: String) -> BaselineHeader? {
        for signature in [Self.baselineSignature, SnapshotBaseline.signature] {
            if let header = FramedFile.header(signature: signature, as: BaselineHeader.self, readingFirst: { try? storage.read("\(baselineFolder)/\(name)", limit: $0) }) {
                return header
            }
        }
        return nil
    }

    /// Publishes a snapshot baseline (format 2, ``SnapshotBaseline``): the store's database file
    /// and blob files copied into the namespace, streamed; a baseline of the same name (an earlier
    /// run's) is checked and kept.
    ///
    /// - Returns: the file's path and the SHA-256 of its bytes.
    @discardableResult
    public func publishSnapshotBaseline(header: BaselineHeader, database: String, databaseBytes: Int64,
                                        blobs: [BlobFile]) throws -> (path: String, sha256: String) {
        let path = "\(baselineFolder)/\(header.fileName)"
        return (path, try SnapshotBaseline.write(header: header, database: database, databaseBytes: databaseBytes, blobs: blobs, to: path))
    }

    /// Reads a baseline of either format whole, a block at a time, and checks its
    /// checksum and that it is this namespace's: what a writer does after publishing one, and a
    /// follower of a redirect before trusting it.
    ///
    /// - Returns: its header and the SHA-256 of the file.
    public func verifyBaseline(_ name: String) throws -> (header: BaselineHeader, sha256: String) {
        let path = "\(baselineFolder)/\(name)"
        if baselineHeader(name)?.format == BaselineHeader.snapshotFormat {
            let (header, sha) = try SnapshotBaseline.verify(path)
            try requireOwn(header, path: path)
            return (header, sha)
        }
        // Checked a block at a time: a baseline of any size is verified with the memory of one block.
        let (header, sha) = try FramedFileStreamReader<BaselineHeader>.read(path, storage: storage, signature: Self.baselineSignature,
                                                                             what: "baseline") { _, _ in }
        try requireFormatOne(header, path: path)
        return (header, sha)
    }

    /// Checks a snapshot baseline and writes its database file to `database`, for a peer that
    /// imports it; its blobs are read where they lie in the baseline (``PackedBlobs``). Nothing is
    /// left written when it is damaged.
    public func extractSnapshotBaseline(_ name: String, database: String) throws -> (header: BaselineHeader, blobs: PackedBlobs) {
        let path = "\(baselineFolder)/\(name)"
        guard let header = baselineHeader(name), header.format == BaselineHeader.snapshotFormat else {
            throw SnapshotBaseline.damaged(path, "it is not a snapshot baseline")
        }
        try requireOwn(header, path: path)
        return try SnapshotBaseline.extract(path, database: database)
    }

    private func requireOwn(_ header: BaselineHeader, path: String) throws {
        guard header.contentName == contentName, header.modelHash == modelHash else {
            throw ContainerError(.foreignLog, path: path, message: "is a baseline of \(header.contentName)/\(header.modelHash.prefix(12)), not of this namespace",
                                 hint: "a file was copied into the wrong folder; move it away")
        }
    }

    /// Refuses a format-1 baseline header of another namespace (or format) as `foreignLog`.
    func requireFormatOne(_ header: BaselineHeader, path: String) throws {
        guard header.format == BaselineHeader.currentFormat, header.contentName == contentName, header.modelHash == modelHash else {
            throw ContainerError(.foreignLog, path: path, message: "is a baseline of \(header.contentName)/\(header.modelHash.prefix(12)) (format \(header.format)), not of this namespace",
                                 hint: "a file was copied into the wrong folder; move it away")
        }
    }

    /// The redirect of this content name, when it was rekeyed.
    ///
    /// - Throws: ``ContainerError`` `damagedManifest` when the file exists but cannot be read.
    public func redirect() throws -> Redirect? {
        let path = redirectPath
        guard let data = try storage.read(path) else { return nil }
        // Its names become folder and file names: a content name, a model hash and a baseline
        // file name, each of its own rule, so that no redirect leads a read outside the container.
        guard let redirect = try? JSONDecoder().decode(Redirect.self, from: data), redirect.from == contentName,
              SyncName.isValid(redirect.to), Self.isModelHash(redirect.modelHash),
              !redirect.baseline.contains("/"), !redirect.baseline.hasPrefix("."), redirect.baseline.hasSuffix(".skbase") else {
            throw ContainerError(.damagedManifest, path: path, message: "is not a readable redirect of content name \(contentName)",
                                 hint: "restore it from a backup of the container, or remove it if no rekey happened")
        }
        return redirect
    }

    /// Where the redirect of this content name is kept (`<container>/<content name>/redirect.json`).
    public var redirectPath: String { "\(container)/\(contentName)/redirect.json" }

    /// Publishes the redirect of this content name (replacing none: a content name is rekeyed once).
    public func writeRedirect(_ redirect: Redirect) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            try storage.write(try encoder.encode(redirect), to: redirectPath, replacing: false)
        } catch let error as ContainerError where error.reason == .wouldOverwrite {
            guard let existing = try self.redirect(), existing.to == redirect.to else {
                throw ContainerError(.unusableContainer, path: redirectPath, message: "content name \(contentName) was already rekeyed to another name",
                                     hint: "sync the store: it follows the existing redirect")
            }
        }
    }
}

extension SyncNamespace {
    /// Removes a file of the namespace (a log that left for an archive); whether it was there.
    @discardableResult
    public func remove(_ path: String) throws -> Bool { try storage.delete(path) }

    /// Removes the files `paths` of this namespace durably, calling `removed` after each one there
    /// was (see ``ContainerStorage/delete(_:removed:)``); how many there were.
    public func remove(_ paths: [String], removed: (String) throws -> Void) throws -> Int { try storage.delete(paths, removed: removed) }

    /// Moves this peer's own damaged log aside (`.<name>.damaged-<time>`, which readers skip), so
    /// that it can be written again: the only change a peer makes to a published log.
    public func moveAside(_ name: LogName, of peer: String) throws {
        let path = logPath(name, of: peer)
        guard let data = try storage.read(path) else { return }
        let aside = "\(logFolder(peer))/.\(name.fileName).damaged-\(Int(Date().timeIntervalSince1970))"
        do {
            try storage.write(data, to: aside, replacing: false)
        } catch let error as ContainerError where error.reason == .wouldOverwrite {
            // Moved aside already this second.
        }
        _ = try storage.delete(path)
    }
}
