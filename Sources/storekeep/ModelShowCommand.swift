import ArgumentParser
import ObjectModel
import StoreMaintenance

/// `storekeep model show MODEL [--version NAME]`: entities, properties, configurations, storekeep
/// facts and the version hash of one model version.
struct ModelShowCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a model version: entities, attributes, relationships, configurations, storekeep facts and hashes.",
        discussion: "MODEL is an .xcdatamodeld bundle, an .xcdatamodel folder or a version's contents file.")

    /// The model to read.
    @Argument(help: "The model: an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    /// The version to show instead of the current one.
    @Option(name: .customLong("version"), help: "The version to show (default: the current version).")
    var versionName: String?

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Reads the model and prints the report.
    func run(context: CommandContext) throws {
        let bundle = try ModelLoader.loadBundle(path: model)
        let chosen = try versionName.map { name throws(ModelLookupError) in try bundle.version(named: name) } ?? bundle.current
        context.logger.debug("model read", metadata: ["versions": "\(bundle.versions.count)"])
        let report = ModelReport(bundle: bundle, model: chosen, path: model)
        try context.output.emit(report) { ModelReportText(report: report).render() }
    }
}
