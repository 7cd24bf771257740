import Foundation
import SyncContainer
import SyncStore

extension SyncSession {
    /// Imports every other peer's transactions past this store's watermarks, in an order that
    /// respects each transaction's dependencies, in SQLite transactions of about
    /// ``SyncOptions/changesPerImportBatch`` changes.
    ///
    /// - Returns: whether anything was imported.
    func importAll() throws -> Bool {
        var watermarks = try store.importWatermarks()
        var cursors: [PeerLogCursor] = []
        for other in try namespace.peers() where other != peer && !refusesImport(from: other) {
            do {
                _ = try namespace.manifest(of: other)
            } catch let error as ContainerError {
                report.findings.append(SyncFinding(code: "manifest.damaged", severity: "warning", peer: other, file: error.path,
                                                   message: error.message, hint: error.hint))
            }
            let (logs, strangers) = try namespace.logs(of: other)
            for name in strangers {
                report.findings.append(SyncFinding(code: "log.stranger", severity: "warning", peer: other, file: "\(namespace.logFolder(other))/\(name)",
                                                   message: "is not a log file name; sync leaves it alone", hint: "move it out of the container"))
            }
            cursors.append(PeerLogCursor(peer: other, namespace: namespace, decoder: TransactionLogDecoder(store: store, peer: other, decodingPayloads: false),
                                         logs: logs, watermark: watermarks[other] ?? 0, accounts: logAccountRule(for: other)))
        }
        var batch: [SyncTransaction] = []
        var batchChanges = 0
        var importedAny = false
        func flush() throws {
            guard !batch.isEmpty else { return }
            if options.dryRun {
                for transaction in batch {
                    report.importedTransactions[transaction.peer, default: 0] += 1
                    report.importedChanges[transaction.peer, default: 0] += transaction.changes.count
                }
            } else {
                do {
                    record(try store.applyRemoteTransactions(batch))
                } catch let error where Self.isContentError(error) {
                    // One transaction cannot be applied: the batch was rolled back whole. Applied one
                    // at a time, the others go in and the one that cannot stops its peer, named.
                    watermarks = try applyOneByOne(batch, cursors: cursors)
                }
                try CrashPoint.reach("sync.import.batch")
            }
            importedAny = true
            batch.removeAll(keepingCapacity: true)
            batchChanges = 0
        }
        var progressed = true
        while progressed {
            progressed = false
            for cursor in cursors {
                while let next = cursor.peek(), isReady(next, watermarks: watermarks) {
                    cursor.advance()
                    watermarks[cursor.peer] = next.sequence
                    batch.append(next)
                    batchChanges += next.changes.count
                    progressed = true
                    if batchChanges >= options.changesPerImportBatch { try flush() }
                }
            }
        }
        try flush()
        for cursor in cursors {
            if let stop = cursor.stop { report.findings.append(stop) }
            if cursor.stop == nil, let waiting = cursor.peek() {
                let missing = waiting.dependencies.filter { $0.key != peer && $0.key != cursor.peer && (watermarks[$0.key] ?? 0) < $0.value }
                    .sorted { $0.key < $1.key }.map { "\($0.key)'s \($0.value)" }.joined(separator: ", ")
                report.findings.append(SyncFinding(
                    code: "peer.waiting", severity: "error", peer: cursor.peer,
                    message: "peer \(cursor.peer)'s transaction \(waiting.sequence) waits for transactions this store has not imported (\(missing)), which the container does not hold",
                    hint: "the peers that made them publish them on their next sync; run sync again then"))
            }
        }
        return importedAny
    }

    private func record(_ result: RemoteImportReport) {
        report.importedTransactions.merge(result.transactions, uniquingKeysWith: +)
        report.importedChanges.merge(result.changes, uniquingKeysWith: +)
        report.conflictsWon += result.conflictsWon
        report.conflictsLost += result.conflictsLost
        report.changesToDeletedRecords += result.changesToDeletedRecords
        report.skippedChanges += result.skipped
    }

    /// Whether `error` comes from what a log holds (a malformed change, a value the store refuses),
    /// not from the disk or the database.
    static func isContentError(_ error: any Error) -> Bool {
        if error is WireError { return true }
        if let error = error as? StoreError { return error.reason == .invalidRequest || error.reason == .damaged }
        return false
    }

    /// Applies `batch` one transaction per SQLite transaction, in order: a transaction that cannot
    /// be applied stops its peer's cursor (finding `log.damaged` naming its file), and a transaction
    /// that depends on one not applied stops its own peer's (`peer.waiting`).
    ///
    /// - Returns: the watermarks afterwards.
    private func applyOneByOne(_ batch: [SyncTransaction], cursors: [PeerLogCursor]) throws -> [String: Int64] {
        var applied = try store.importWatermarks()
        var stopped = Set<String>()
        let cursorOf = Dictionary(cursors.map { ($0.peer, $0) }, uniquingKeysWith: { first, _ in first })
        for transaction in batch where !stopped.contains(transaction.peer) {
            let cursor = cursorOf[transaction.peer]
            if let blocker = transaction.dependencies.first(where: { stopped.contains($0.key) && (applied[$0.key] ?? 0) < $0.value }) {
                stopped.insert(transaction.peer)
                cursor?.halt(SyncFinding(
                    code: "peer.waiting", severity: "error", peer: transaction.peer,
                    message: "peer \(transaction.peer)'s transaction \(transaction.sequence) waits for peer \(blocker.key)'s transaction \(blocker.value), which cannot be used",
                    hint: "see the finding about peer \(blocker.key)'s log"))
                continue
            }
            do {
                record(try store.applyRemoteTransactions([transaction]))
                applied[transaction.peer] = transaction.sequence
            } catch let error where Self.isContentError(error) {
                stopped.insert(transaction.peer)
                cursor?.halt(SyncFinding(
                    code: "log.damaged", severity: "error", peer: transaction.peer, file: cursor?.file(of: transaction.sequence),
                    message: "peer \(transaction.peer)'s transaction \(transaction.sequence) cannot be applied: \(error)",
                    hint: "the file was not written by a working storekeep; move it away, and the peer publishes its transactions again"))
            }
        }
        return applied
    }

    /// Whether every transaction `transaction` depended on (of peers other than its own and this
    /// store's) is imported.
    private func isReady(_ transaction: SyncTransaction, watermarks: [String: Int64]) -> Bool {
        for (other, last) in transaction.dependencies where other != peer && other != transaction.peer {
            if (watermarks[other] ?? 0) < last { return false }
        }
        return true
    }
}
