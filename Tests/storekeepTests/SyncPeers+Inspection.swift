import Foundation
import GRDB

/// What kill-safety tests read of peers from outside: the crash points a command passes, each
/// store's history, the logs and archives of the container.
extension SyncPeers {
    /// The crash points `arguments` passes, in order, run on a copy of these peers (so that the
    /// peers themselves are not changed); `rewrite` maps the peers' paths to the copy's.
    func crashPoints(_ arguments: (SyncPeers) -> [String]) throws -> [String] {
        let scratch = try copy()
        defer { scratch.directory.remove() }
        let result = try StorekeepProcess.run(arguments(scratch), environment: ["STOREKEEP_CRASH_TRACE": "1"], timeout: 120)
        guard result.status == 0 else { throw StorekeepProcess.HarnessError(description: "traced run failed: \(result)") }
        return result.stderr.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("crash point "), let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[line.index(colon, offsetBy: 2)...])
        }
    }

    /// Opens store `name` read-only.
    func database(_ name: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: store(name), configuration: configuration)
    }

    /// The (peer, sequence) pairs of the history of store `name`.
    func history(_ name: String) throws -> Set<PeerTransaction> {
        try database(name).read { db in
            Set(try Row.fetchAll(db, sql: "SELECT peer, seq FROM sk_transaction").compactMap { row -> PeerTransaction? in
                guard let peer: String = row[0], let sequence: Int64 = row[1] else { return nil }
                return PeerTransaction(peer: peer, sequence: sequence)
            })
        }
    }

    /// The last sequence number store `name` has issued to its own transactions, and its peer ID.
    func issued(_ name: String) throws -> (peer: String, last: Int64) {
        try database(name).read { db in
            let peer = try String.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = 'peerID'") ?? name
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(last_seq) FROM sk_peer WHERE is_local = 1") ?? 0
            return (peer, last)
        }
    }

    /// Every (peer, sequence) held by a log file anywhere in the container (every content name and
    /// model hash), by the ranges their names give.
    func containerTransactions() throws -> Set<PeerTransaction> {
        var result = Set<PeerTransaction>()
        guard let walker = FileManager.default.enumerator(atPath: container) else { return result }
        for case let path as String in walker where path.hasSuffix(".sklog") && !URL(fileURLWithPath: path).lastPathComponent.hasPrefix(".") {
            let parts = path.split(separator: "/")
            guard parts.count >= 2, parts[parts.count - 2] == "logs", parts.count >= 3 else { continue }
            let peer = String(parts[parts.count - 3])
            let numbers = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.split(separator: "-").compactMap { Int64($0) }
            guard numbers.count == 2, numbers[0] <= numbers[1] else { continue }
            for sequence in numbers[0]...numbers[1] { result.insert(PeerTransaction(peer: peer, sequence: sequence)) }
        }
        return result
    }

    /// Every (peer, sequence) held by an archive (`.tar.zst`) found under the container or `extra`
    /// that `storekeep archive verify` accepts, by its manifest.
    func verifiedArchiveTransactions(extra: [String] = []) throws -> Set<PeerTransaction> {
        var archives: [String] = []
        for root in [container] + extra {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let path as String in walker where path.hasSuffix(".tar.zst") && !URL(fileURLWithPath: path).lastPathComponent.hasPrefix(".") {
                archives.append("\(root)/\(path)")
            }
        }
        var result = Set<PeerTransaction>()
        for archive in archives {
            let verified = try StorekeepProcess.run(["archive", "verify", archive, "--json"])
            guard verified.status == 0 else { continue }
            for entry in try verified.jsonObject()["entries"] as? [[String: Any]] ?? [] {
                guard let peer = entry["peer"] as? String, let first = entry["firstSequence"] as? Int, let last = entry["lastSequence"] as? Int,
                      first <= last else { continue }
                for sequence in first...last { result.insert(PeerTransaction(peer: peer, sequence: Int64(sequence))) }
            }
        }
        return result
    }

    /// The transactions of `made` found in no store's history, no log of the container and no
    /// verified archive (what would be lost).
    func lostTransactions(of made: Set<PeerTransaction>, extraArchiveFolders: [String] = []) throws -> Set<PeerTransaction> {
        var missing = made.subtracting(try containerTransactions())
        for name in names where !missing.isEmpty { missing.subtract(try history(name)) }
        if !missing.isEmpty { missing.subtract(try verifiedArchiveTransactions(extra: extraArchiveFolders)) }
        return missing
    }

    /// Every transaction the peers have made: per store, its own sequence numbers 1 through the
    /// last it issued.
    func madeTransactions() throws -> Set<PeerTransaction> {
        var result = Set<PeerTransaction>()
        for name in names {
            let (peer, last) = try issued(name)
            guard last > 0 else { continue }
            for sequence in 1...last { result.insert(PeerTransaction(peer: peer, sequence: sequence)) }
        }
        return result
    }
}

/// One transaction of one peer's sequence.
struct PeerTransaction: Hashable, CustomStringConvertible {
    var peer: String
    var sequence: Int64
    var description: String { "\(peer)#\(sequence)" }
}
