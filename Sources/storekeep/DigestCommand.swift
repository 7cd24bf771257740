import ArgumentParser
import SyncStore

/// `storekeep digest STORE`: the digest of a store's content, equal for equal content.
struct DigestCommand: StorekeepCommand {
    /// Name and help text.
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Print a digest of a store's content (records, values, relationships, binary values).",
        discussion: "Equal for stores with equal content, whatever their row ids, timestamps or history. Reads the store without writing to it.")

    /// The store to digest.
    @Argument(help: "The store file.", completion: .file())
    var store: String

    /// The shared options.
    @OptionGroup var globals: GlobalOptions

    /// Opens the store read-only and prints the digest.
    func run(context: CommandContext) throws {
        let opened = try SyncStore.open(at: store, readOnly: true)
        let digest = try opened.contentDigest()
        try context.output.emit(DigestReport(path: store, digest: digest)) {
            var table = TextTable(columns: [.init("entity"), .init("records", alignment: .right), .init("digest")])
            for (name, entity) in digest.entities.sorted(by: { $0.key < $1.key }) {
                table.append([name, String(entity.records), entity.digest])
            }
            return "\(digest.digest)  \(store)\n\n" + table.render()
        }
    }
}

/// The JSON document of `storekeep digest`.
struct DigestReport: Encodable {
    /// The store file as given.
    var path: String
    /// The digest itself.
    var digest: String
    /// Live records in all.
    var records: Int
    /// Relationship links counted.
    var links: Int
    /// Per entity: `records` and `digest`.
    var entities: [String: ContentDigest.Entity]

    /// Builds the document from a computed digest.
    init(path: String, digest: ContentDigest) {
        self.path = path
        self.digest = digest.digest
        records = digest.records
        links = digest.links
        entities = digest.entities
    }
}
