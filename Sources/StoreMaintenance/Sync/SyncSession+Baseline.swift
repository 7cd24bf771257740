import Foundation
import SyncContainer
import SyncStore

extension SyncSession {
    /// Applies the namespace's newest baseline when the logs alone cannot bring this store up to
    /// it: a new peer after the logs were archived, or a peer behind a rekey's baseline. Reports
    /// what it did; a baseline that cannot be used is a finding.
    func applyBaselineIfNeeded() throws {
        guard let newest = try namespace.baselines().last else { return }
        guard let header = namespace.baselineHeader(newest) else {
            report.findings.append(SyncFinding(code: "baseline.damaged", severity: "error", file: "\(namespace.baselineFolder)/\(newest)",
                                               message: "its header cannot be read", hint: "move it away; the peer that wrote it can write another"))
            return
        }
        let watermarks = try store.importWatermarks()
        var needed = false
        for (other, covered) in header.vector where other != peer && (watermarks[other] ?? 0) < covered {
            // The logs must hold every transaction from the watermark up to what the baseline covers.
            let logs = (try? namespace.logs(of: other).logs) ?? []
            var next = (watermarks[other] ?? 0) + 1
            for log in logs where log.last >= next {
                if log.first > next { break }
                next = log.last + 1
            }
            if next <= covered { needed = true }
        }
        guard needed else { return }
        guard !options.dryRun else {
            report.baselinesApplied.append("\(namespace.baselineFolder)/\(newest)")
            return
        }
        // Read (and, for a snapshot, unpacked, then encoded and merged a part at a time) only when it is needed.
        let result: RemoteImportReport
        do {
            result = try SnapshotBaselines.apply(newest, in: namespace, to: store, covering: header.vector)
        } catch let error as ContainerError {
            report.findings.append(SyncFinding(code: "baseline.damaged", severity: "error", file: error.path, message: error.message, hint: error.hint))
            return
        } catch let unusable as SnapshotBaselines.UnusableSnapshot {
            report.findings.append(SyncFinding(code: "baseline.damaged", severity: "error", file: "\(namespace.baselineFolder)/\(newest)",
                                               message: "its snapshot is not a usable store: \(unusable.error.message)",
                                               hint: "the peer that wrote it (\(header.peer)) can write another with `storekeep archive` or `storekeep rekey`; move this one away"))
            return
        } catch let error where Self.isContentError(error) {
            // Applied whole or not at all: the store holds nothing of it.
            report.findings.append(SyncFinding(code: "baseline.damaged", severity: "error", file: "\(namespace.baselineFolder)/\(newest)",
                                               message: "its content cannot be applied: \(error)",
                                               hint: "the peer that wrote it (\(header.peer)) can write another with `storekeep archive` or `storekeep rekey`; move this one away"))
            return
        }
        report.baselinesApplied.append("\(namespace.baselineFolder)/\(newest)")
        report.conflictsWon += result.conflictsWon
        report.conflictsLost += result.conflictsLost
    }
}
