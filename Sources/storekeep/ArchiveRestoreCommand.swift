import ArgumentParser
import Foundation
import ObjectModel
import SyncContainer

/// `storekeep archive restore ARCHIVE --container DIR`: puts an archive's logs and baseline back.
struct ArchiveRestoreCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put an archive's logs and baseline back into a container, verifying everything written.",
        discussion: "Refuses to overwrite any file (exit 73) unless --force; refuses a damaged archive (exit 65).")

    /// The archive.
    @Argument(help: "The archive (.tar.zst).", completion: .file())
    var archive: String

    /// The container folder.
    @Option(help: "The container folder to restore into (it must exist).", completion: .directory)
    var container: String

    /// Overwrite files that exist.
    @Flag(help: "Overwrite files that exist.")
    var force = false

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Restores (verifying every entry before any is put in place), and says what was written.
    func run(context: CommandContext) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container, isDirectory: &isFolder), isFolder.boolValue else {
            throw ContainerError(.notFound, path: container, message: "no such container folder", hint: "create it first")
        }
        let manifest = try LogArchive.manifest(of: archive)
        guard SyncName.isValid(manifest.contentName), manifest.modelHash.count == 64, manifest.modelHash.allSatisfy(\.isHexDigit) else {
            throw ContainerError(.damagedArchive, path: archive, message: "names an unusable namespace", hint: "use another copy of the archive")
        }
        let folder = SyncNamespace(container: URL(fileURLWithPath: container).standardizedFileURL.path, contentName: manifest.contentName,
                                   modelHash: manifest.modelHash).path
        // One reading of the archive: every entry is staged and checked before any gets its name,
        // so a damaged archive writes nothing.
        try LogArchive.restore(archive, into: folder, force: force)
        try context.output.emit(manifest) { "\(archive): \(manifest.entries.count) entries restored into \(folder) and verified" }
    }
}
