import Foundation
import GRDB
import LegacyFormats
import Testing

/// The Core Data stores of the shared corpus, and direct SQLite access to private copies of them
/// (so that tests compare the reader with SQLite itself without touching the corpus).
enum CoreDataCorpus {
    /// Every corpus store, by a short label.
    static let stores: [String: URL] = [
        "CoreDataBooks": Corpus.root.appendingPathComponent("coredata-stores/apple-CoreDataBooks/CoreDataBooks.sqlite"),
        "Recipes": Corpus.root.appendingPathComponent("coredata-stores/apple-Recipes-2010/Recipes.sqlite"),
        "Photos": photos,
        "wibosco1": wibosco(1), "wibosco2": wibosco(2), "wibosco3": wibosco(3),
        "alemarV1": Corpus.models.appendingPathComponent("alemar11-CoreDataPlus/stores/SampleModel_V1.sqlite"),
        "alemarV2": Corpus.models.appendingPathComponent("alemar11-CoreDataPlus/stores/SampleModel_V2.sqlite"),
    ]

    /// Photos.app's store, with its `-wal` and `-shm`.
    static let photos = Corpus.root.appendingPathComponent("coredata-stores/apple-Photos-macOS-10.15.7/Photos.sqlite")

    /// wibosco's store made with model version `version`.
    static func wibosco(_ version: Int) -> URL {
        Corpus.models.appendingPathComponent("wibosco-CoreDataMigrationRevised-Example/stores/CoreDataMigration_Example_\(version).sqlite")
    }

    /// Whether the Core Data part of the corpus is here.
    static var isPresent: Bool { FileManager.default.fileExists(atPath: photos.path) }

    /// The message shown when these tests are skipped.
    static let absentMessage: Comment = "the shared corpus's Core Data stores (../shared/corpus) are absent; skipped"

    /// A private copy of `store` with the given companion suffixes, opened with GRDB; removed by `body`'s end.
    static func withDirectCopy<T>(of store: URL, suffixes: [String] = ["-wal"], _ body: (DatabaseQueue) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdtest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for suffix in [""] + suffixes where FileManager.default.fileExists(atPath: store.path + suffix) {
            let target = folder.appendingPathComponent(store.lastPathComponent + suffix)
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: target.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent(store.lastPathComponent).path)
        defer { try? queue.close() }
        return try body(queue)
    }

    /// Rows per `Z_ENT` in `table`, read directly.
    static func count(_ queue: DatabaseQueue, table: String, entity: Int64) throws -> Int {
        try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ?", arguments: [entity]) ?? -1
        }
    }

    /// `(entity, primary key)` from a global ID `x-coredata://<uuid>/<Entity>/p<pk>`.
    static func parse(_ globalID: String) -> (String, Int64)? {
        let parts = globalID.split(separator: "/")
        guard parts.count == 4, let last = parts.last, last.hasPrefix("p"), let key = Int64(last.dropFirst()) else { return nil }
        return (String(parts[2]), key)
    }

    /// Every record of every entity of `reader`, by global ID.
    static func allRecords(_ reader: CoreDataStoreReader, batchSize: Int = 1000) throws -> [String: CoreDataRecord] {
        var records: [String: CoreDataRecord] = [:]
        for entity in reader.model.entities {
            try reader.forEachRecord(entity: entity.name, batchSize: batchSize) { record in
                records[record.globalID] = record
                return true
            }
        }
        return records
    }
}
