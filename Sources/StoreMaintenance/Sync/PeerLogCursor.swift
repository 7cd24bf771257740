import Foundation
import SyncContainer
import SyncStore

/// Walks one other peer's transactions past this store's watermark, one log file at a time, in
/// sequence order; stops at the first log it cannot use (reported as a finding).
final class PeerLogCursor {
    let peer: String
    private let namespace: SyncNamespace
    private let decoder: TransactionLogDecoder
    private var logs: [LogName]
    private var loaded: [SyncTransaction] = []
    private var position = 0
    /// The last sequence number taken from this cursor (starts at the watermark).
    private(set) var last: Int64
    /// Why the cursor stopped early, when it did.
    private(set) var stop: SyncFinding?

    /// Which account a log's data must belong to (`nil`: any).
    private let accounts: LogAccountRule?

    init(peer: String, namespace: SyncNamespace, decoder: TransactionLogDecoder, logs: [LogName], watermark: Int64, accounts: LogAccountRule? = nil) {
        self.peer = peer
        self.accounts = accounts
        self.namespace = namespace
        self.decoder = decoder
        self.logs = logs.filter { $0.last > watermark }
        last = watermark
    }

    /// The log files read so far, by the range they hold (to name the file of a transaction).
    private var readLogs: [(name: LogName, path: String)] = []

    /// The next transaction, loading the next log when needed; `nil` at the end or after a stop.
    func peek() -> SyncTransaction? {
        guard stop == nil else { return nil }
        while position >= loaded.count {
            guard stop == nil, !logs.isEmpty else { return nil }
            loadNextLog()
        }
        return loaded[position]
    }

    /// Takes the transaction ``peek()`` returned.
    func advance() {
        guard position < loaded.count else { return }
        last = loaded[position].sequence
        position += 1
    }

    /// Stops the cursor: nothing more of this peer is taken in this run.
    func halt(_ finding: SyncFinding) {
        stop = finding
        loaded = []
        position = 0
    }

    /// The path of the log file that holds this peer's transaction `sequence`, among those read.
    func file(of sequence: Int64) -> String? {
        readLogs.first { $0.name.first <= sequence && sequence <= $0.name.last }?.path
    }

    /// Whether transactions are known to be left (a log not yet read, or one read and not taken).
    var hasPending: Bool { position < loaded.count || (!logs.isEmpty && stop == nil) }

    private func loadNextLog() {
        let name = logs.removeFirst()
        let path = namespace.logPath(name, of: peer)
        loaded = []
        position = 0
        guard name.first <= last + 1 else {
            stop = SyncFinding(code: "log.missing", severity: "error", peer: peer, file: path,
                               message: "peer \(peer)'s transactions \(last + 1)–\(name.first - 1) are in no log file of the container",
                               hint: "the peer publishes them again on its next sync if it still has them; until then its later transactions wait")
            return
        }
        do {
            let (header, body) = try namespace.readLog(name, of: peer)
            if let refusal = accounts?.refusal(of: header, path: path) {
                stop = refusal
                return
            }
            var transactions: [SyncTransaction] = []
            try body.withUnsafeBytes { bytes in try decoder.forEachTransaction(in: bytes) { transactions.append($0) } }
            var expected = name.first
            for transaction in transactions {
                guard transaction.sequence == expected, transaction.peer == peer else {
                    throw ContainerError(.damagedLog, path: path, message: "holds transaction \(transaction.sequence) where \(expected) belongs",
                                         hint: "the file was not written by storekeep; move it away")
                }
                expected += 1
            }
            guard expected - 1 == name.last else {
                throw ContainerError(.damagedLog, path: path, message: "holds transactions \(name.first)–\(expected - 1), not \(name.first)–\(name.last) as its name says",
                                     hint: "the file was not written by storekeep; move it away")
            }
            loaded = transactions.filter { $0.sequence > last }
            readLogs.append((name, path))
        } catch let error as ContainerError {
            let code = error.reason == .foreignLog ? "log.foreign" : "log.damaged"
            stop = SyncFinding(code: code, severity: "error", peer: peer, file: error.path, message: error.message, hint: error.hint)
        } catch {
            stop = SyncFinding(code: "log.damaged", severity: "error", peer: peer, file: path,
                               message: "its transactions cannot be read: \(error)",
                               hint: "the file is damaged or was not written by storekeep; move it away, and the peer publishes its transactions again")
        }
    }
}
