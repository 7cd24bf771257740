import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep seed STORE --from SEEDSET`: seeds a store once per peer per account.
struct SeedCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Seed a store from a seed set, once per peer per account, with IDs every peer derives alike.",
        discussion: """
            Each seed record's global ID is derived from its entity (the root of its family) and the values of its \
            seed key, not from the seed set's name, so two peers seeding offline, and a store migrated with the same \
            built-in records, hold the same record and sync merges it. Run again, seed does nothing and says so; a \
            newer version of the set adds its new records and refreshes the untouched ones, never a record the user \
            modified or deleted. A record an older app seeded with a random ID is adopted: it gets the set's seed \
            mark (and, untouched by the user, the set's values), so that de-duplication merges it with the derived \
            record. --dry-run opens the store read-only. See docs/seeding.md.
            """)

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The seed set file.
    @Option(name: .customLong("from"), help: "The seed set file (YAML, docs/seeding.md).", completion: .file())
    var seedSet: String

    /// The account to seed for.
    @Option(help: "The account to seed for (default: the store's).")
    var account: String?

    /// Say what would happen, change nothing.
    @Flag(help: "Say what would be seeded; open the store read-only, take no lock, save nothing.")
    var dryRun = false

    /// How long to wait for the store's lock.
    @Option(help: "Seconds to wait for the store's lock while another process holds it.")
    var lockTimeout: Double = 30

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects a negative wait.
    func validate() throws {
        if lockTimeout < 0 { throw ValidationError("--lock-timeout must not be negative.") }
    }

    /// Seeds and says what it did.
    func run(context: CommandContext) throws {
        let set = try SeedSet(path: seedSet)
        let report = try StoreSeeder(path: store, seedSet: set, account: account, dryRun: dryRun, lockTimeout: lockTimeout).run()
        try context.output.emit(report) {
            let who = report.account.isEmpty ? "no account" : "account \(report.account)"
            if report.alreadySeeded {
                return "\(store): seed set \(report.seedSet) version \(report.previousVersion ?? report.version) was already seeded for \(who); nothing to do"
            }
            var lines = ["\(store): seed set \(report.seedSet) version \(report.version) for \(who)\(report.dryRun ? " (dry run: nothing saved)" : "")"]
            lines.append("inserted \(report.inserted.count), refreshed \(report.refreshed.count), adopted \(report.adopted.count), "
                         + "kept (edited by the user) \(report.keptEdited.count), left deleted \(report.skippedDeleted.count), "
                         + "already there \(report.present.count)")
            if !report.duplicates.isEmpty {
                lines.append("\(report.duplicates.count) seed key(s) held by several records (\(report.duplicates.map { $0.joined(separator: " = ") }.joined(separator: "; "))): the next sync or `storekeep repair` merges them")
            }
            if let sequence = report.sequence { lines.append("saved as transaction \(sequence) by storekeep.seed") }
            return lines.joined(separator: "\n")
        }
    }
}
