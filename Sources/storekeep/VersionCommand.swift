import ArgumentParser
import StoreMaintenance

/// `storekeep version`: prints the versions of storekeep and of the libraries it links.
struct VersionCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the versions of storekeep and of the libraries it is linked with.",
        discussion: "With --json, prints {\"version\": …, \"libarchive\": …}.")

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Prints the version report.
    func run(context: CommandContext) throws {
        let report = VersionReport(
            version: Storekeep.version,
            libarchiveVersionString: StoreMaintenance.archiveLibraryVersion)
        context.logger.debug("linked libraries resolved", metadata: ["libarchive": "\(report.libarchive)"])
        try context.output.emit(report) { report.text }
    }
}
