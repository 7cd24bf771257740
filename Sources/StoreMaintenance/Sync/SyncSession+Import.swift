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
        let decoderModel = store.model
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
            cursors.append(PeerLogCursor(peer: other, namespace: namespace, decoder: TransactionLogDecoder(model: decoderModel, peer: other, decodingPayloads: false),
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
                let result = try store.applyRemoteTransactions(batch)
                CrashPoint.reach("sync.import.batch")
                report.importedTransactions.merge(result.transactions, uniquingKeysWith: +)
                report.importedChanges.merge(result.changes, uniquingKeysWith: +)
                report.conflictsWon += result.conflictsWon
                report.conflictsLost += result.conflictsLost
                report.changesToDeletedRecords += result.changesToDeletedRecords
                report.skippedChanges += result.skipped
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

    /// Whether every transaction `transaction` depended on (of peers other than its own and this
    /// store's) is imported.
    private func isReady(_ transaction: SyncTransaction, watermarks: [String: Int64]) -> Bool {
        for (other, last) in transaction.dependencies where other != peer && other != transaction.peer {
            if (watermarks[other] ?? 0) < last { return false }
        }
        return true
    }
}
