import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep seed-store build STORE (--from SEEDSET | --from-sqlite FILE)`: builds and installs a seed store.
struct SeedStoreBuildCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the seed store of a seed configuration beside a store, from a seed set or a shipped seed store, and put it in place atomically.",
        discussion: """
            The entities of a configuration marked read-only seed data (docs/models.md) live in STORE.seed-<configuration>, \
            never synced and never written by the app. The new seed store is built under a temporary name, checked, \
            fsynced and renamed over the old one. The user records it would leave dangling (seed references to records \
            it lacks) are listed; storekeep check reports them once it is in place. The same seed set version again: \
            nothing to do. See docs/seeding.md.
            """)

    /// The user's store.
    @Argument(help: "The user's store the seed store goes beside.", completion: .file())
    var store: String

    /// A seed set to build from.
    @Option(name: .customLong("from"), help: "The seed set file (YAML, docs/seeding.md).", completion: .file())
    var seedSet: String?

    /// A seed store file to copy, or a Core Data store to read.
    @Option(name: .customLong("from-sqlite"), help: "A seed store file made by seed-store build (shipped with the app, downloaded) to copy in, or the app's Core Data store of the configuration to read.", completion: .file())
    var sqlite: String?

    /// The seed configuration.
    @Option(help: "The seed configuration (default: the model's only one).")
    var configuration: String?

    /// Say what would happen, change nothing.
    @Flag(help: "Build and check the seed store, list the records it would leave dangling, install nothing.")
    var dryRun = false

    /// How long to wait for the seed store's lock.
    @Option(help: "Seconds to wait for the seed store's lock while another build holds it.")
    var lockTimeout: Double = 30

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Exactly one source.
    func validate() throws {
        if (seedSet == nil) == (sqlite == nil) { throw ValidationError("Give one source: --from SEEDSET or --from-sqlite FILE.") }
        if lockTimeout < 0 { throw ValidationError("--lock-timeout must not be negative.") }
    }

    /// Builds, installs, and says what it did.
    func run(context: CommandContext) throws {
        let source: SeedStoreBuilder.Source = try seedSet.map { .seedSet(try SeedSet(path: $0)) } ?? .sqlite(sqlite ?? "")
        let report = try SeedStoreBuilder(path: store, configuration: configuration, source: source, dryRun: dryRun, lockTimeout: lockTimeout).run()
        try context.output.emit(report) {
            let what = report.source == "coreData" ? "the records of Core Data store \(report.sourcePath)" : "seed set \(report.seedSet) version \(report.version)"
            if report.nothingToDo {
                return "\(report.seedStore): already holds \(what) for configuration \(report.configuration); nothing to do"
            }
            let records = report.records.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            var lines = [report.dryRun ? "\(report.seedStore): would hold \(what) (dry run: nothing installed)"
                : "\(report.seedStore): \(what) installed\(report.previousVersion.map { " (replacing version \($0), kept as \(report.previous ?? "?"))" } ?? "")"]
            lines.append("configuration \(report.configuration): \(records.isEmpty ? "no records" : records)")
            if report.danglingReferenceCount > 0 {
                lines.append("\(report.danglingReferenceCount) user record(s) point at seed records it \(report.dryRun ? "would lack" : "lacks")\(report.dryRun ? "" : " (storekeep check reports them)"):")
                for reference in report.danglingReferences.prefix(20) {
                    lines.append("  \(reference.entity) \(reference.globalID).\(reference.attribute) → \(reference.targetEntity) \(reference.target)")
                }
                if report.danglingReferenceCount > 20 { lines.append("  … \(report.danglingReferenceCount - 20) more (--json lists up to 1,000)") }
            }
            return lines.joined(separator: "\n")
        }
    }
}
