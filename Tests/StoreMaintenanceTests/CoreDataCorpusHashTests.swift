import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import StoreMaintenance
import Testing

/// Core Data's version hashes for every version of every `.xcdatamodeld` bundle of the shared
/// corpus, against every corpus store's `NSStoreModelVersionHashes`: a store whose hashes are a
/// version's matches it entity for entity and is found as that version; the versions of one
/// bundle hash distinctly, and where two cannot (only what the hashes leave out differs) finding
/// the version names both and asks for `--model-version`.
@Suite struct CoreDataCorpusHashTests {
    /// `../shared/corpus`, beside the package.
    static let corpus = StepPlannerTests.corpus.deletingLastPathComponent()
    static var corpusIsPresent: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("models").path) }

    /// Every bundle of the corpus, read, with its folder.
    static func bundles() throws -> [(url: URL, bundle: ModelBundle)] {
        guard let walker = FileManager.default.enumerator(at: corpus.appendingPathComponent("models"), includingPropertiesForKeys: nil) else { return [] }
        var urls: [URL] = []
        for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
            urls.append(url)
            walker.skipDescendants()
        }
        return try urls.sorted { $0.path < $1.path }.map { ($0, try ModelLoader.loadBundle(path: $0.path)) }
    }

    /// Every `.sqlite` file of the corpus.
    static func stores() -> [URL] {
        guard let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "sqlite" }.sorted { $0.path < $1.path }
    }

    /// The `.xcdatamodel` folders inside a bundle, counted on disk (not by the reader).
    static func versionFolders(in bundle: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }
    }

    @Test("every version of every corpus bundle has Core Data hashes; a bundle's versions hash distinctly, or a tie is named by the finder",
          .enabled(if: corpusIsPresent, "the shared corpus (../shared/corpus) is absent"))
    func everyVersionHashes() throws {
        let bundles = try Self.bundles()
        var versions = 0
        for (url, bundle) in bundles {
            let onDisk = Self.versionFolders(in: url)
            #expect(bundle.versions.count == onDisk.count, "\(url.lastPathComponent): every version read (\(onDisk))")
            versions += bundle.versions.count
            for version in bundle.versions {
                let hashes = CoreDataVersionHash.entityHashes(of: version)
                #expect(Set(hashes.keys) == Set(version.entities.map(\.name)), "\(version.versionName): one hash per entity")
                #expect(hashes.values.allSatisfy { $0.count == 32 }, "\(version.versionName): 32-byte hashes")
            }
            for tie in Self.ties(in: bundle) { try expectTieNamed(tie, in: bundle) }
        }
        #expect(bundles.count == (try Self.bundleCountOnDisk()) && versions > bundles.count,
                "\(versions) versions in \(bundles.count) bundles")
    }

    /// The groups of versions of `bundle` whose entity hashes are all equal (names sorted).
    static func ties(in bundle: ModelBundle) -> [[String]] {
        Dictionary(grouping: bundle.versions, by: { CoreDataVersionHash.entityHashes(of: $0) })
            .values.filter { $0.count > 1 }.map { $0.map(\.versionName).sorted() }.sorted { $0[0] < $1[0] }
    }

    @Test("a tie between two versions of a corpus bundle (a copy of a version with another class name) is found and named by the finder",
          .enabled(if: corpusIsPresent, "the shared corpus (../shared/corpus) is absent"))
    func aTieIsNamed() throws {
        let url = Self.corpus.appendingPathComponent("models/wibosco-CoreDataMigrationRevised-Example/CoreDataMigration_Example.xcdatamodeld")
        var bundle = try ModelLoader.loadBundle(path: url.path)
        var copy = try bundle.version(named: "CoreDataMigration_Example 2")
        copy.versionName = "Copy of 2"
        copy.entities = copy.entities.map { entity in
            var renamed = entity
            renamed.className = "Renamed" + entity.name
            return renamed
        }
        bundle.versions.append(copy)
        #expect(Self.ties(in: bundle) == [["Copy of 2", "CoreDataMigration_Example 2"]])
        try expectTieNamed(["Copy of 2", "CoreDataMigration_Example 2"], in: bundle)
    }

    /// The bundles on disk, counted by `find`'s own walk of the folder.
    static func bundleCountOnDisk() throws -> Int {
        let find = Process()
        find.executableURL = URL(fileURLWithPath: "/usr/bin/find")
        find.arguments = [corpus.appendingPathComponent("models").path, "-name", "*.xcdatamodeld", "-type", "d"]
        let pipe = Pipe()
        find.standardOutput = pipe
        try find.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        find.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").count
    }

    /// A store written with the hashes of tied versions is never given one of them: the finder
    /// names every tied version and asks for `--model-version`.
    private func expectTieNamed(_ tie: [String], in bundle: ModelBundle) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-tie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tie.sqlite")
        try CoreDataStoreWriter(model: try bundle.version(named: tie[0])).write(to: store.path, rows: [])
        let error = #expect(throws: CoreDataStoreError.self) {
            _ = try CoreDataStoreReader.open(at: store, bundle: bundle, versionOverride: nil, preferredVersion: nil)
        }
        #expect(error?.problem.contains("fit the store by its version hashes") == true, "\(bundle.name) \(tie)")
        for name in tie { #expect(error?.problem.contains("'\(name)'") == true, "\(bundle.name): \(name) named") }
    }

    @Test("every corpus store whose metadata hashes are a version's matches it entity for entity, and is found as that version; a store in a project's stores/ folder is always one of its bundle's",
          .enabled(if: corpusIsPresent, "the shared corpus (../shared/corpus) is absent"))
    func storesMatchTheirVersions() throws {
        let bundles = try Self.bundles()
        var matched: [String] = []
        for store in Self.stores() {
            let reader = try CoreDataStoreReader.open(at: store)
            let stored = try reader.storeVersionHashes()
            reader.close()
            #expect(!stored.isEmpty, "\(store.lastPathComponent) has NSStoreModelVersionHashes")
            var found: [String] = []
            for (url, bundle) in bundles {
                for version in bundle.versions {
                    let computed = CoreDataVersionHash.entityHashes(of: version)
                    // Entity for entity: a version that shares some hashes and not others is no match.
                    let equal = stored.filter { computed[$0.key] == $0.value }.count
                    guard equal == stored.count && computed.count == stored.count else { continue }
                    found.append("\(version.versionName)")
                    let (opened, match) = try CoreDataStoreReader.open(at: store, bundle: bundle, versionOverride: nil, preferredVersion: version.versionName)
                    opened.close()
                    #expect(match.method == .versionHashes && match.version.versionName == version.versionName,
                            "\(store.lastPathComponent): \(match.sentence)")
                    #expect(match.sentence.contains("(\(stored.count) of \(stored.count) entities)"))
                    #expect(store.path.hasPrefix(url.deletingLastPathComponent().path + "/"),
                            "\(store.lastPathComponent) matches \(url.lastPathComponent), which is another project's bundle")
                }
            }
            let inProject = store.deletingLastPathComponent().lastPathComponent == "stores"
            #expect(inProject ? found.count == 1 : found.isEmpty, "\(store.lastPathComponent): matches \(found)")
            matched += found.map { "\(store.lastPathComponent) = \($0)" }
        }
        #expect(!matched.isEmpty, "no corpus store matched a version")
    }
}
