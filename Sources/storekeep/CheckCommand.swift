import ArgumentParser
import StoreMaintenance

/// `storekeep check STORE... [--model MODEL] [--quick|--full] [--jobs N]`: checks stores against
/// their invariants without writing to them, and exits like a monitoring plugin.
struct CheckCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check stores against their invariants without writing to them (exit 0 ok, 1 warnings, 2 violations, 3 could not check).",
        discussion: """
            Reads each store in one read transaction, beside any running writer, and never writes to it. \
            Every finding has a stable code (docs/checks.md), a severity, the entity and global IDs concerned, \
            a message and a hint. The exit status is the worst over all stores: 3 when any store could not be \
            checked, else 2 when any has a violation, else 1 when any has a warning, else 0.
            """)

    /// The stores.
    @Argument(help: "The store files.", completion: .file())
    var stores: [String] = []

    /// The model the stores must have been made for.
    @Option(help: "The model the stores must have been made for; its validation rules (min/max, patterns) are checked.", completion: .file())
    var model: String?

    /// The version of `--model`.
    @Option(help: "The version of --model (default: its current version).")
    var modelVersion: String?

    /// How deep to read: `--quick` (the default) or `--full`.
    @Flag var depthFlag: CheckDepthFlag = .quick

    /// Stores checked at the same time.
    @Option(help: "Stores checked at the same time.")
    var jobs: Int = 1

    /// Findings listed per code, entity and property of a store.
    @Option(help: "Findings listed per code, entity and property of each store; the rest are counted (0: list all).")
    var maxFindings: Int = 100

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects contradictory or impossible options (exit 64).
    func validate() throws {
        guard !stores.isEmpty else { throw ValidationError("Give at least one store to check.") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256.") }
        guard maxFindings >= 0 else { throw ValidationError("--max-findings must be 0 or more.") }
        guard model != nil || modelVersion == nil else { throw ValidationError("--model-version needs --model.") }
    }

    /// Checks the stores, prints the reports, and exits with the worst status.
    func run(context: CommandContext) throws {
        let depth = depthFlag.depth
        var options = CheckOptions(depth: depth, findingLimit: maxFindings == 0 ? nil : maxFindings)
        let reports: [StoreCheckReport]
        do {
            options.model = try model.map { try ModelLoader.load(path: $0, version: modelVersion) }
            context.logger.debug("checking stores", metadata: ["stores": "\(stores.count)", "jobs": "\(jobs)", "depth": "\(depth.rawValue)"])
            reports = StoreChecker(options: options).check(storesAt: stores, jobs: jobs)
        } catch {
            // Without its model no store can be checked: each is reported as not checked, with the reason.
            let failure = CheckFailure(error: error)
            reports = stores.map { StoreCheckReport(path: $0, depth: depth, findings: [], error: failure) }
        }
        for report in reports {
            context.logger.info("checked store", metadata: ["store": "\(report.path)", "status": "\(report.status.rawValue)",
                                                            "findings": "\(report.findings.count)", "seconds": "\(report.seconds)"])
        }
        let document = CheckDocument(depth: depth, reports: reports)
        try context.output.emit(document) { CheckReportText(document: document).render() }
        if document.summary.status != .ok {
            throw CommandExit(status: document.summary.exitCode)
        }
    }
}
