import Foundation
import ObjectModel
import SyncStore
import Testing

/// End-to-end runs of the built binary on the corpus stores made with corpus bundles, for what an
/// operator meets beyond the plain one-command migration: a step file kept outside the app's
/// folder (`--steps`) with UUIDs generated per record, dropped data warned about or refused, the
/// version found by the store's `Z_MODELCACHE` when its hashes are damaged, and the message of a
/// store that fits no version. Every source is read independently with Python's sqlite3.
@Suite("storekeep migrate: corpus Core Data stores, step folders, dropped data, fallbacks", .serialized)
struct CoreDataCorpusStepsTests {
    static let message = Comment(rawValue: "the shared corpus (../shared/corpus) is absent")
    static var corpusIsPresent: Bool { ModelFiles.corpusIsPresent && ModelFiles.coreDataCorpusIsPresent }
    static let stores = CoreDataBundleMigrationTests.stores

    /// The UUIDs `generate: uuid-from-global-id` must give, worked out by Python's hashlib
    /// (RFC 9562 name-based UUIDv8: SHA-256 of the URL namespace and the global ID).
    static func pythonUUIDs(of ids: [GlobalID]) throws -> [String] {
        try Python.run("""
            import hashlib, sys, uuid
            for gid in sys.argv[1:]:
                b = bytearray(hashlib.sha256(uuid.NAMESPACE_URL.bytes + gid.encode()).digest()[:16])
                b[6] = (b[6] & 0x0F) | 0x80
                b[8] = (b[8] & 0x3F) | 0x80
                print(str(uuid.UUID(bytes=bytes(b))).upper())
            """, ids.map(\.rawValue)).split(separator: "\n").map(String.init)
    }

    @Test("SampleModel_V2 reaches CoreDataPlus's current version with a step file in a folder of the operator's (--steps): each person gets a UUID made from its global ID",
          .enabled(if: corpusIsPresent, message))
    func sampleModelV2WithAStepsFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let made = Self.stores[4]
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("steps"), withIntermediateDirectories: true)
        try directory.write("""
            # CoreDataPlus's current version is its first: Person.id is new there, required, without a default.
            from: SampleModel2
            to: SampleModel
            entities:
              - entity: Person
                attributes:
                  id: {generate: uuid-from-global-id}
            """, to: "steps/SampleModel2 to SampleModel.step.yaml")
        let steps = directory.url.appendingPathComponent("steps").path
        let target = directory.url.appendingPathComponent("v1.store").path
        let run = try StorekeepProcess.run(["migrate", made.storePath(), "--to", target, "--model", made.bundlePath(), "--steps", steps, "--json"])
        #expect(run.status == 0, "\(run)")
        let report = try run.jsonObject()
        #expect((report["modelNote"] as? String)?.contains("SampleModel2 → SampleModel (step file SampleModel2 to SampleModel.step.yaml") == true)
        #expect((report["droppedData"] as? [Any])?.isEmpty == true)
        let store = try SyncStore.open(at: target, readOnly: true)
        #expect(store.model.versionName == "SampleModel")
        try CoreDataCorpusValues(store: made.storePath()).expectSameValues(in: store)
        let persons = try store.globalIDs(of: "Person")
        #expect(persons.count == 20)
        let expected = try Self.pythonUUIDs(of: persons)
        let ids = try persons.map { id -> String in
            guard case .uuid(let uuid)? = try store.record(id)?.values["id"] else { return "none" }
            return uuid.uuidString
        }
        #expect(ids == expected)
        #expect(Set(ids).count == 20)

        // The same on every run, and by the two-step path (copy at SampleModel2, then the step).
        let again = try StorekeepProcess.run(["migrate", made.storePath(), "--to", directory.url.appendingPathComponent("again.store").path,
                                              "--model", made.bundlePath(), "--steps", steps, "--json"])
        let copy = directory.url.appendingPathComponent("copy.store").path
        let first = try StorekeepProcess.run(["migrate", made.storePath(), "--to", copy, "--model", made.bundlePath(),
                                              "--model-version", "SampleModel2", "--target-version", "SampleModel2", "--json"])
        let second = try StorekeepProcess.run(["migrate", copy, "--to", directory.url.appendingPathComponent("two.store").path,
                                               "--model", made.bundlePath(), "--steps", steps, "--json"])
        #expect(again.status == 0 && first.status == 0 && second.status == 0, "\(again)\n\(first)\n\(second)")
        let digest = try #require(report["digest"] as? String)
        #expect(try again.jsonObject()["digest"] as? String == digest)
        #expect(try second.jsonObject()["digest"] as? String == digest)
    }

    @Test("what the one step drops is named on stderr and in the report; --refuse-dropped-data stops before writing",
          .enabled(if: corpusIsPresent, message))
    func droppedDataIsWarnedAboutOrRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let made = Self.stores[1]
        let target = directory.url.appendingPathComponent("v4.store").path
        let planned = try StorekeepProcess.run(["migrate", made.storePath(), "--to", target, "--model", made.bundlePath(), "--dry-run"])
        #expect(planned.status == 0, "\(planned)")
        #expect(planned.stdout.contains("drops   Post.content (10 values)"), "\(planned.stdout)")
        let warning = "storekeep: warning: the target version has no place for Post.content (10 values); they are not carried over (Core Data's own migration drops them too)"
        #expect(planned.stderr.contains(warning), "\(planned.stderr)")

        let refused = try StorekeepProcess.run(["migrate", made.storePath(), "--to", target, "--model", made.bundlePath(), "--refuse-dropped-data"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("would drop stored data the target version has no place for: Post.content (10 values), in CoreDataMigration_Example 2 → CoreDataMigration_Example 4"))
        #expect(!FileManager.default.fileExists(atPath: target))

        let run = try StorekeepProcess.run(["migrate", made.storePath(), "--to", target, "--model", made.bundlePath()])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains(warning), "\(run.stderr)")
        #expect(run.stdout.contains("dropped (not carried over): Post.content (10 values)"), "\(run.stdout)")
    }

    @Test("a store whose version hashes are damaged is found by the model in its Z_MODELCACHE, and migrates to the same content",
          .enabled(if: corpusIsPresent, message))
    func foundByModelCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let made = Self.stores[2]
        let copy = try Self.copyWithZeroedHashes(of: made, in: directory)
        let zeroed = try StorekeepProcess.run(["migrate", copy, "--to", directory.url.appendingPathComponent("z.store").path,
                                               "--model", made.bundlePath(), "--json"])
        let report = try Self.expectSameContent(zeroed, as: made, in: directory,
                                                notePrefix: "version 'CoreDataMigration_Example 3' found by the model in its Z_MODELCACHE (its version hashes match no version)")
        #expect((report["sourceKind"] as? String)?.contains("found by Z_MODELCACHE") == true)
    }

    /// A copy of `made`'s store in `directory` with every entity hash zeroed (by Python's sqlite3
    /// and plistlib), the rest of the metadata and the model cache left as they are.
    static func copyWithZeroedHashes(of made: CoreDataBundleMigrationTests.Made, in directory: TemporaryDirectory) throws -> String {
        let copy = directory.url.appendingPathComponent("zeroed.sqlite").path
        try FileManager.default.copyItem(atPath: made.storePath(), toPath: copy)
        _ = try Python.run("""
            import plistlib, sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            metadata = plistlib.loads(c.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0])
            metadata["NSStoreModelVersionHashes"] = {name: bytes(32) for name in metadata["NSStoreModelVersionHashes"]}
            c.execute("UPDATE Z_METADATA SET Z_PLIST = ?", (plistlib.dumps(metadata, fmt=plistlib.FMT_BINARY),))
            c.commit()
            """, [copy])
        return copy
    }

    @Test("a store whose Z_MODELCACHE fits two versions equally: exit 65 naming both and asking for --model-version, even when one is the target; --model-version decides",
          .enabled(if: corpusIsPresent, message))
    func modelCacheTieIsNeverGuessed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let made = Self.stores[2]
        let bundle = try CoreDataBundleMigrationTests.bundleWithACopyOfVersion3(in: directory).path
        let copy = try Self.copyWithZeroedHashes(of: made, in: directory)
        let target = directory.url.appendingPathComponent("x.store").path
        for targetVersion in [[], ["--target-version", "Copy of 3"], ["--target-version", "CoreDataMigration_Example 3"]] {
            let run = try StorekeepProcess.run(["migrate", copy, "--to", target, "--model", bundle, "--json"] + targetVersion)
            #expect(run.status == 65, "\(targetVersion): \(run)")
            let error = try run.jsonError()
            let problem = error["message"] as? String ?? ""
            #expect(problem.contains("several versions of CoreDataMigration_Example fit the store by its Z_MODELCACHE")
                    && problem.contains("'Copy of 3'") && problem.contains("'CoreDataMigration_Example 3'") && problem.contains("does not guess"),
                    "\(targetVersion): \(problem)")
            #expect((error["hint"] as? String)?.contains("--model-version") == true)
            #expect(!FileManager.default.fileExists(atPath: target), "nothing written")
        }
        let chosen = try StorekeepProcess.run(["migrate", copy, "--to", target, "--model", bundle, "--model-version", "CoreDataMigration_Example 3", "--json"])
        try Self.expectSameContent(chosen, as: made, in: directory,
                                   notePrefix: "version 'CoreDataMigration_Example 3' given with --model-version (the store's version hashes match no version of the bundle)")
    }

    /// Checks that `run` (a migration of a copy of `made`'s store) succeeded, that its model note
    /// starts with `notePrefix`, and that it gives the digest of `made`'s own store migrated with
    /// its bundle (found by its hashes); returns `run`'s report.
    @discardableResult
    static func expectSameContent(_ run: ProcessResult, as made: CoreDataBundleMigrationTests.Made, in directory: TemporaryDirectory,
                                  notePrefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let original = try StorekeepProcess.run(["migrate", made.storePath(), "--to", directory.url.appendingPathComponent("o.store").path,
                                                 "--model", made.bundlePath(), "--json"])
        #expect(run.status == 0 && original.status == 0, "\(run)\n\(original)", sourceLocation: sourceLocation)
        let report = try run.jsonObject()
        #expect((report["modelNote"] as? String)?.hasPrefix(notePrefix) == true, "\(report["modelNote"] ?? "")", sourceLocation: sourceLocation)
        #expect(report["digest"] as? String == (try original.jsonObject()["digest"] as? String), "the same content as the store found by its hashes",
                sourceLocation: sourceLocation)
        return report
    }

    @Test("a store of another app: the closest version and what differs, each said once",
          .enabled(if: corpusIsPresent, message))
    func noVersionFitsSaysEachDifferenceOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let books = ModelFiles.corpusCoreDataStores.appendingPathComponent("apple-CoreDataBooks/CoreDataBooks.sqlite").path
        let photos = ModelFiles.corpusCoreDataStores.appendingPathComponent("apple-Photos-macOS-10.15.7/Photos.sqlite").path
        let bundle = Self.stores[0].bundlePath()
        let refused = try StorekeepProcess.run(["migrate", books, "--to", directory.url.appendingPathComponent("x.store").path, "--model", bundle])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("closest: 'CoreDataMigration_Example': 0 of 1 entity hashes equal; entity Book is in the store, not in the version; entity Post is in the version, not in the store\n"),
                "\(refused.stderr)")
        #expect(refused.stderr.components(separatedBy: "entity Book").count == 2, "Book named once: \(refused.stderr)")
        let many = try StorekeepProcess.run(["migrate", photos, "--to", directory.url.appendingPathComponent("y.store").path, "--model", bundle])
        #expect(many.status == 65, "\(many)")
        #expect(many.stderr.contains("0 of 54 entity hashes equal; entities AdditionalAssetAttributes, Adjustment, Album, AlbumList, Asset, AssetAnalysisState and 48 more are in the store, not in the version; entity Post is in the version, not in the store"),
                "\(many.stderr)")
        #expect(!many.stderr.contains("entity Album is in"), "the model cache's differences do not name them again")
    }
}
