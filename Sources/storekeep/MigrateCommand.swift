import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep migrate SOURCE --to TARGET`: copies a legacy source into a new versioned store in
/// resumable batches.
struct MigrateCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a legacy property list, an Apple Core Data store or an older storekeep store into a new versioned store, in resumable batches.",
        discussion: """
            The kind of SOURCE is recognised from its content. A property list needs --mapping; \
            an older storekeep store needs --model (the bundle holding its version and the target); \
            a Core Data store given --model (the app's bundle) is read with the version it was made \
            with, found by Core Data's version hashes, and migrated to the current version. \
            The source is never modified. Killed at any point, the same command resumes from the \
            last checkpoint; run again after it finished, it says so and changes nothing.
            """)

    /// The source file.
    @Argument(help: "The source: a property list (with --mapping), a Core Data store, or a storekeep store (with --model).", completion: .file())
    var source: String

    /// The target store.
    @Option(name: .customLong("to"), help: "The target store (created when absent).", completion: .file())
    var target: String

    /// A model to use instead of the one the mapping names; for a storekeep store, the bundle of the target version.
    @Option(help: "A model to use instead of the one the mapping names; for a storekeep store, the bundle holding its version and the target (required).",
            completion: .file())
    var model: String?

    /// The version of `--model` to use.
    @Option(help: "The version of --model to use: for a Core Data store, the store's own version (default: found by its version hashes); otherwise the target (default: the current version).")
    var modelVersion: String?

    /// The target version of `--model`.
    @Option(help: "The version of --model to migrate to (default: its current version).")
    var targetVersion: String?

    /// A folder of step files to use instead of the bundle's folder.
    @Option(name: .customLong("steps"),
            help: ArgumentHelp("A folder of step files (<from> to <to>.step.yaml) to use instead of the folder holding --model, which then need not be written (default: that folder).",
                               valueName: "dir"),
            completion: .directory)
    var stepsFolder: String?

    /// Stop before writing when the migration would drop stored data.
    @Flag(help: "Stop (exit 65) before writing anything when the migration would drop stored data the target version has no place for, instead of dropping it as Core Data does.")
    var refuseDroppedData = false

    /// The mapping file for a property list.
    @Option(help: "The mapping file (required for a property list).", completion: .file())
    var mapping: String?

    /// Records per batch (default: 5,000 records converted one by one, 50,000 rows SQLite copies).
    @Option(help: ArgumentHelp("Records per batch: one transaction and one checkpoint each (default: 5000; 50000 for rows SQLite copies itself).",
                               valueName: "n"))
    var batchSize: Int?

    /// Print the plan and write nothing.
    @Flag(help: "Print the plan and write nothing.")
    var dryRun = false

    /// What to do with a record that cannot be written.
    @Option(help: "What to do with a record that cannot be written: stop (the target stays resumable) or skip (reported, and the run goes on).")
    var onError: OnErrorOption = .stop

    /// The content name of a new target.
    @Option(help: "The content name of a new target (default: the model's name).")
    var contentName: String?

    /// The peer ID of a new target.
    @Option(help: "The peer ID of a new target (default: a new UUID).")
    var peerID: String?

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects option values that cannot work.
    func validate() throws {
        guard (batchSize ?? 1) >= 1 && (batchSize ?? 1) <= 1_000_000 else { throw ValidationError("--batch-size must be between 1 and 1000000.") }
        guard targetVersion == nil || model != nil else { throw ValidationError("--target-version needs --model.") }
        guard stepsFolder == nil || model != nil else { throw ValidationError("--steps needs --model.") }
    }

    /// Recognises the source, then plans or runs the migration.
    func run(context: CommandContext) throws {
        let opened = try MigrationSourceRequest(source: source, mapping: mapping, model: model, modelVersion: modelVersion,
                                                targetVersion: targetVersion, stepsFolder: stepsFolder).open()
        context.logger.debug("source recognised", metadata: ["kind": "\(opened.kind.description)"])
        var options = MigrationOptions(onError: onError.policy,
                                       contentName: contentName ?? opened.defaultContentName, peerID: peerID)
        if let batchSize {
            options.batchSize = batchSize
            options.copyBatchSize = batchSize
        }
        options.refusesDroppedData = refuseDroppedData
        let migrator = Migrator(source: opened.source, target: target, options: options)
        if dryRun {
            let plan = try migrator.plan()
            MigrationText.warnAboutDroppedData(plan.droppedData)
            try context.output.emit(plan) { MigrationText.plan(plan) }
            return
        }
        let renderer = ProgressRenderer(enabled: !context.settings.quiet)
        let report: MigrationReport
        do {
            report = try migrator.run { renderer.show($0) }
            renderer.finish()
        } catch {
            renderer.finish()
            throw error
        }
        MigrationText.warnAboutDroppedData(report.droppedData)
        try context.output.emit(report) { MigrationText.report(report) }
        if report.outcome == .stoppedAtRejectedRecord {
            throw CommandExit(status: 65, message: """
                storekeep: error: \(source): stopped at a record that cannot be written: \(report.stoppedAt ?? "?")
                hint: fix that record, or run the same command with --on-error skip to skip it; the target resumes where it stopped
                """)
        }
    }
}
