import ArgumentParser
import Foundation
import SyncContainer

/// `storekeep archive verify ARCHIVE`: reads every entry and checks it against the manifest.
struct ArchiveVerifyCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Read every entry of an archive and check its SHA-256 against the manifest.",
        discussion: "Exit status: 0 every entry matches; 65 an entry does not match, is missing, or the archive is truncated (the entry is named).")

    /// The archive.
    @Argument(help: "The archive (.tar.zst).", completion: .file())
    var archive: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Verifies and says so.
    func run(context: CommandContext) throws {
        let manifest = try LogArchive.verify(archive)
        try context.output.emit(manifest) { "\(archive): \(manifest.entries.count) entries verified" }
    }
}
