import ArgumentParser
import Foundation
import SyncContainer

/// `storekeep archive list ARCHIVE`: what an archive holds (its manifest).
struct ArchiveListCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List what an archive holds, from its manifest (only the manifest is read).")

    /// The archive.
    @Argument(help: "The archive (.tar.zst).", completion: .file())
    var archive: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Prints the manifest.
    func run(context: CommandContext) throws {
        let manifest = try LogArchive.manifest(of: archive)
        try context.output.emit(manifest) {
            var table = TextTable(columns: [.init("entry"), .init("kind"), .init("peer"), .init("sequences"), .init("bytes", alignment: .right), .init("sha256")])
            for entry in manifest.entries {
                let range = entry.firstSequence.map { "\($0)–\(entry.lastSequence ?? $0)" } ?? "-"
                table.append([entry.path, entry.kind, entry.peer ?? "-", range, String(entry.bytes), String(entry.sha256.prefix(16))])
            }
            return "\(archive): \(manifest.contentName)/\(manifest.modelHash.prefix(12)), by peer \(manifest.by), \(manifest.entries.count) entries\n" + table.render()
        }
    }
}
