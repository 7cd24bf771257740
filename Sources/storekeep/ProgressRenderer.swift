import Foundation
import StoreMaintenance

/// Shows a migration's progress on stderr: a bar with rate and ETA on a terminal, a plain line
/// every few seconds otherwise (cron logs), nothing under `--quiet` or `--json` without a terminal.
final class ProgressRenderer: @unchecked Sendable {
    private let isTerminal: Bool
    private let enabled: Bool
    private let interval: TimeInterval
    private let started = Date()
    private var lastShown = Date.distantPast
    private var drewBar = false

    /// Creates a renderer; `enabled` is false under `--quiet`.
    init(enabled: Bool, interval: TimeInterval = 5) {
        self.isTerminal = isatty(STDERR_FILENO) == 1
        self.enabled = enabled
        self.interval = interval
    }

    /// Shows `progress` if it is time to.
    func show(_ progress: MigrationProgress) {
        guard enabled else { return }
        let now = Date()
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(progress.doneThisRun) / elapsed
        if isTerminal {
            guard now.timeIntervalSince(lastShown) >= 0.1 else { return }
            lastShown = now
            let fraction = progress.grandTotal.map { $0 > 0 ? min(Double(progress.doneThisRun) / Double($0), 1) : 1 }
            let width = 30
            let filled = Int((fraction ?? 0) * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            var eta = ""
            if let total = progress.grandTotal, rate > 0 {
                eta = " ETA " + Self.duration(Double(max(total - progress.doneThisRun, 0)) / rate)
            }
            let line = "[\(bar)] \(progress.stream) \(progress.done)\(progress.total.map { "/\($0)" } ?? "") · \(Int(rate)) records/s\(eta)"
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
            drewBar = true
        } else {
            guard now.timeIntervalSince(lastShown) >= interval else { return }
            lastShown = now
            let total = progress.total.map { " of \($0)" } ?? ""
            StandardStream.error.write("storekeep: migrating \(progress.stream) (\(progress.entity)): \(progress.done)\(total) records, \(Int(rate)) records/s")
        }
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
        drewBar = false
    }

    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600 ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
                             : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
