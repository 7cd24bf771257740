import ArgumentParser
import Foundation
import LegacyFormats
import XcodeModel
import StoreMaintenance
import SyncStore

/// `storekeep inspect SOURCE`: what storekeep sees in a source before anyone writes a mapping.
struct InspectCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what storekeep sees in a source: a property list's tree of key paths, or a store's contents.",
        discussion: "Reads the source without writing to it, in memory that does not grow with the file.")

    /// The source file.
    @Argument(help: "A property list, an Apple Core Data store or a storekeep store.", completion: .file())
    var source: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Recognises the source and prints what it holds.
    func run(context: CommandContext) throws {
        let kind = try SourceKind.detect(path: source)
        switch kind {
        case .binaryPropertyList, .xmlPropertyList:
            let document = try PropertyListDocument.open(at: URL(fileURLWithPath: source))
            // Every value is checked on the way: a file a migration would refuse is refused here too.
            let shape = try document.shape(checkingEveryValue: true)
            let report = PropertyListInspection(path: source, kind: "propertyList",
                                                format: document.format == .binary ? "binary" : "xml", bytes: document.fileSize, root: shape)
            try context.output.emit(report) { PropertyListShapeText.render(report) }
        case .storekeepStore:
            let info = try StoreInfo(store: try SyncStore.open(at: source, readOnly: true))
            try context.output.emit(StoreInspection(path: source, kind: "storekeepStore", store: info)) { StoreInfoText(info: info).render() }
        case .coreDataStore:
            let reader = try CoreDataStoreReader.open(at: URL(fileURLWithPath: source))
            defer { reader.close() }
            // A file a migration would refuse is refused here too (a table whose rows are out of order reads as a store).
            try reader.requireIntact()
            let summary = reader.summary
            let hashes = ((try? reader.storeVersionHashes()) ?? [:]).mapValues(CoreDataVersionHash.hex)
            try context.output.emit(CoreDataInspection(path: source, kind: "coreDataStore", coreData: summary, versionHashes: hashes)) {
                var table = TextTable(columns: [.init("entity"), .init("parent"), .init("table"), .init("records", alignment: .right),
                                                .init("Core Data hash")])
                for entity in summary.entities {
                    table.append([entity.name + (entity.isAbstract ? " (abstract)" : ""), entity.parent ?? "", entity.table, String(entity.count),
                                  String((hashes[entity.name] ?? "").prefix(12))])
                }
                return (["\(source): Apple Core Data store", reader.modelSentence] + reader.notes + ["", table.render()]).joined(separator: "\n")
            }
        case .unknown(let words):
            throw MaintenanceError(path: source, problem: "is not a source storekeep can read: it looks like \(words)",
                                   hint: "give a property list or a store", failureKind: .badInput)
        }
    }
}

/// The JSON document of `inspect` on a property list.
struct PropertyListInspection: Encodable {
    /// The file as given.
    var path: String
    /// `propertyList`.
    var kind: String
    /// `binary` or `xml`.
    var format: String
    /// The file's size.
    var bytes: Int64
    /// The tree of key paths.
    var root: PropertyListShape
}

/// The JSON document of `inspect` on a Core Data store.
struct CoreDataInspection: Encodable {
    /// The file as given.
    var path: String
    /// `coreDataStore`.
    var kind: String
    /// Entities with record counts, and where the model came from.
    var coreData: CoreDataStoreSummary
    /// The store's `NSStoreModelVersionHashes`: Core Data's version hash of each entity (64 hex
    /// digits), by entity name, as `model show` computes them from a model version.
    var versionHashes: [String: String]
}

/// The JSON document of `inspect` on a storekeep store.
struct StoreInspection: Encodable {
    /// The file as given.
    var path: String
    /// `storekeepStore`.
    var kind: String
    /// What `info` shows.
    var store: StoreInfo
}
