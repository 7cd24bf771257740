import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// A folder for Core Data lightweight-rule tests, and the migration they all make: a store of one
/// version written as Core Data writes one (``CoreDataStoreWriter``), migrated with the bundle of
/// that version and the next, found by hash, in one step, and opened again.
struct CoreDataRuleFixture {
    /// What one migration gives back.
    struct Migrated {
        var source: CoreDataMigrationSource
        var report: MigrationReport
        var store: SyncStore
        /// The global ID of the source's record of an entity with a primary key.
        var id: (String, Int64) -> GlobalID
        /// Where the target is (its rejected records are listed beside it).
        var targetPath: String
    }

    let folder: URL

    /// A fixture in a new folder of the temporary directory, made when the first store is written.
    init(prefix: String) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A folder `steps` holding the step file `<from> to <to>.step.yaml` with `yaml` (written after
    /// its `from:`/`to:` header); its path, for `--steps`.
    func stepsFolder(from: String, to: String, _ yaml: String) throws -> String {
        let steps = folder.appendingPathComponent("steps")
        try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
        try Data("from: \(from)\nto: \(to)\n\(yaml)".utf8).write(to: steps.appendingPathComponent("\(from) to \(to).step.yaml"))
        return steps.path
    }

    /// Writes the store of `old` holding `rows` (replacing one written before).
    @discardableResult
    func write(_ old: ManagedModel, rows: [CoreDataStoreWriter.Row]) throws -> (path: String, writer: CoreDataStoreWriter) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let writer = CoreDataStoreWriter(model: old)
        let storePath = path("\(old.versionName).sqlite")
        if FileManager.default.fileExists(atPath: storePath) { try FileManager.default.removeItem(atPath: storePath) }
        try writer.write(to: storePath, rows: rows)
        return (storePath, writer)
    }

    /// The source of the store of `old` holding `rows`, with the bundle `[old, new]` whose current
    /// version is `new`: it throws what planning throws (``StepInferenceError`` for a change that
    /// cannot be inferred).
    func source(_ old: ManagedModel, _ new: ManagedModel, rows: [CoreDataStoreWriter.Row],
                stepsFolder: String? = nil) throws -> (source: CoreDataMigrationSource, writer: CoreDataStoreWriter) {
        let (storePath, writer) = try write(old, rows: rows)
        let bundle = ModelBundle(name: old.name, versions: [old, new], currentVersionName: new.versionName)
        let source = try CoreDataMigrationSource(path: storePath, bundle: bundle, bundlePath: path("\(old.name).xcdatamodeld"),
                                                 versionOverride: nil, targetVersion: nil, stepsFolder: stepsFolder)
        return (source, writer)
    }

    /// Writes the store of `old` holding `rows`, migrates it with the bundle `[old, new]` to `new`
    /// and opens the result (`<new version>.store`, or `targetName`); `stepsFolder` as `--steps`.
    func migrate(_ old: ManagedModel, _ new: ManagedModel, rows: [CoreDataStoreWriter.Row], stepsFolder: String? = nil,
                 options: MigrationOptions = MigrationOptions(), targetName: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> Migrated {
        let (source, writer) = try source(old, new, rows: rows, stepsFolder: stepsFolder)
        #expect(source.match?.version.versionName == old.versionName, sourceLocation: sourceLocation)
        #expect(source.match?.method == .versionHashes, sourceLocation: sourceLocation)
        let target = path(targetName ?? "\(new.versionName).store")
        let report = try Migrator(source: source, target: target, options: options).run()
        #expect(report.outcome == .completed && report.verified, "\(report)", sourceLocation: sourceLocation)
        let store = try SyncStore.open(at: target, readOnly: true)
        #expect(store.model.versionName == new.versionName, sourceLocation: sourceLocation)
        return Migrated(source: source, report: report, store: store,
                        id: { GlobalID("x-coredata://\(writer.storeUUID)/\($0)/p\($1)") }, targetPath: target)
    }
}
