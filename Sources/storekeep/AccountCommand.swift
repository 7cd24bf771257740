import ArgumentParser
import Foundation
import StoreMaintenance

/// `storekeep account STORE [--set TOKEN [--keep-local|--reset]]`.
struct AccountCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Show the account a store's data belongs to, or change it without ever silently deleting local data.",
        discussion: """
            --set TOKEN on a store without an account adopts the local data into it. On a store of another \
            account it refuses unless told --keep-local (the local data becomes TOKEN's, exported on the next \
            sync) or --reset (a backup is taken, then the store starts empty for TOKEN). sync refuses a \
            container namespace of another account. See docs/seeding.md.
            """)

    /// The store.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The new account.
    @Option(name: .customLong("set"), help: "The account token to give the store.")
    var token: String?

    /// Keep the local data for the new account.
    @Flag(help: "With --set on a store of another account: the local data becomes the new account's.")
    var keepLocal = false

    /// Set the local data aside and start empty.
    @Flag(help: "With --set on a store of another account: take a backup, then start empty for the new account.")
    var reset = false

    /// How long to wait for the store's lock.
    @Option(help: "With --set: seconds to wait for the store's lock while another process holds it.")
    var lockTimeout: Double = 30

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Rejects flags that need --set, and both choices at once.
    func validate() throws {
        if keepLocal && reset { throw ValidationError("--keep-local and --reset cannot be given together.") }
        if (keepLocal || reset) && token == nil { throw ValidationError("--keep-local and --reset go with --set TOKEN.") }
        if lockTimeout < 0 { throw ValidationError("--lock-timeout must not be negative.") }
    }

    /// Shows or changes the account.
    func run(context: CommandContext) throws {
        let engine = StoreAccount(path: store, lockTimeout: lockTimeout)
        let report = try token.map { try engine.set($0, localData: keepLocal ? .keep : (reset ? .reset : .refuse)) } ?? engine.show()
        try context.output.emit(report) {
            switch report.action {
            case "shown": return "\(store): account \(report.account ?? "(none)")"
            case "unchanged": return "\(store): already account \(report.account ?? "")"
            case "adopted": return "\(store): the local data now belongs to account \(report.account ?? "")"
            case "keptLocal": return "\(store): account \(report.previous ?? "") → \(report.account ?? ""); the local data is kept and exported on the next sync"
            default:
                return "\(store): account \(report.previous ?? "") → \(report.account ?? ""); the local data was set aside in \(report.backup ?? "?"); the store starts empty (peer \(report.newPeerID ?? "?"))"
            }
        }
    }
}
