import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
@testable import StoreMaintenance
import SyncStore
import Testing

/// `seed` against an app writing the same store: what the store holds of each seed record, and
/// which of them the user edited, is read in the transaction that writes the seed records, so an
/// edit the app commits while `seed` prepares is never overwritten.
@Suite struct SeedingRaceTests {
    let folder: URL
    let model: ManagedModel
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var builtinTypes: String { packageRoot.appendingPathComponent("Migrations/SpeechTimer/speechtimer-builtin-types.seed.yaml").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("seeding-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        model = try XcodeModelReader().readModel(at: Self.packageRoot.appendingPathComponent("Migrations/SpeechTimer/SpeechTimer.xcdatamodeld")).current
    }

    /// Version 2 of the Speech Timer seed set: Icebreaker and Evaluation get new green times.
    private func version2() throws -> SeedSet {
        let text = try String(contentsOfFile: Self.builtinTypes, encoding: .utf8)
            .replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "name: Icebreaker, greenSeconds: 240", with: "name: Icebreaker, greenSeconds: 250")
            .replacingOccurrences(of: "name: Evaluation, greenSeconds: 120", with: "name: Evaluation, greenSeconds: 130")
        let file = folder.appendingPathComponent("builtin-v2.seed.yaml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return try SeedSet(path: file)
    }

    /// A store seeded with version 1 of the set, the app's handle on it, and Icebreaker's global ID.
    private func seededStore() throws -> (String, SyncStore, GlobalID) {
        let path = folder.appendingPathComponent("speeches.store").path
        let app = try SyncStore.create(at: path, model: model, contentName: "SpeechTimer")
        _ = try StoreSeeder(path: path, seedSet: try SeedSet(path: Self.builtinTypes)).run()
        return (path, app, app.seedGlobalID(entity: "SpeechType", values: ["name": .string("Icebreaker")]))
    }

    @Test("the app edits a seed record after seed checked its set and before it saves: the edit is kept, the untouched record refreshed")
    func editWhileSeeding() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, app, icebreaker) = try seededStore()
        let evaluation = app.seedGlobalID(entity: "SpeechType", values: ["name": .string("Evaluation")])
        #expect(try app.record(icebreaker)?.values["greenSeconds"] == .double(240))

        let set = try version2()
        let report = try StoreSeeder.$prepared.withValue({ prepared in
            guard prepared == path else { return }
            // The app's own connection: a user's edit committed while seed was preparing.
            try app.save(author: "app") { tx in try tx.update(icebreaker, values: ["greenSeconds": .double(245)]) }
        }) {
            try StoreSeeder(path: path, seedSet: set).run()
        }
        #expect(report.keptEdited == [icebreaker.rawValue], "\(report)")
        #expect(!report.refreshed.contains(icebreaker.rawValue) && report.refreshed.contains(evaluation.rawValue), "\(report)")
        #expect(try app.record(icebreaker)?.values["greenSeconds"] == .double(245), "the user's edit survives")
        #expect(try app.record(evaluation)?.values["greenSeconds"] == .double(130), "the untouched record is refreshed")
    }

    @Test("seeding the same run's newer version after the user's edit: the edited record is kept, and seeding again is nothing to do")
    func editThenNewerVersion() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, app, icebreaker) = try seededStore()
        try app.save(author: "app") { tx in try tx.update(icebreaker, values: ["greenSeconds": .double(245)]) }
        let set = try version2()
        let report = try StoreSeeder(path: path, seedSet: set).run()
        #expect(report.keptEdited == [icebreaker.rawValue], "\(report)")
        #expect(try app.record(icebreaker)?.values["greenSeconds"] == .double(245))
        #expect(try StoreSeeder(path: path, seedSet: set).run().alreadySeeded)
    }
}
