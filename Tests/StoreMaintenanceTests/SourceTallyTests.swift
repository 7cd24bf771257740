import Foundation
import ObjectModel
@testable import StoreMaintenance
import SyncStore
import Testing

/// A source whose streams read less than it holds: a stream that skips an item must fail the
/// verification, and a second run must say the target holds a failed run of this migration.
final class ShortReadSource: MigrationSource {
    let wrapped = ArraySource(notes: 20)
    var kindDescription: String { wrapped.kindDescription }
    var location: String { wrapped.location }
    var targetModel: ManagedModel { wrapped.targetModel }
    var modelNote: String? { nil }
    var fingerprint: String { wrapped.fingerprint }
    var checksum: String { wrapped.checksum }
    var streams: [any MigrationStream] { wrapped.streams }
    func validate() throws {}
    /// One note more than the notes stream yields: as a table holding a row no stream reads.
    func tallies() throws -> [SourceTally] {
        try wrapped.tallies().map { tally in
            var counted = tally
            if tally.streams == ["notes"] { counted.count += 1 }
            return counted
        }
    }
}

@Suite struct SourceTallyTests {
    @Test("a run that read fewer items than the source holds is not verified, and is not taken up again")
    func aShortReadFailsVerification() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("t.store").path

        let complete = try Migrator(source: ArraySource(notes: 20), target: folder.appendingPathComponent("ok.store").path,
                                    options: MigrationOptions(batchSize: 7)).run()
        #expect(complete.verified, "a source whose streams read all it holds verifies")

        do {
            _ = try Migrator(source: ShortReadSource(), target: target, options: MigrationOptions(batchSize: 7)).run()
            Issue.record("a short read was verified")
        } catch let error as MaintenanceError {
            #expect(error.failureKind == .internalFailure)
            #expect(error.problem.contains("array notes of memory holds 21 items, but the migration read 20"), "\(error.problem)")
        }
        do {
            _ = try Migrator(source: ShortReadSource(), target: target, options: MigrationOptions(batchSize: 7)).run()
            Issue.record("a target holding a failed run was used again")
        } catch let error as MaintenanceError {
            #expect(error.failureKind == .cannotCreateOutput)
            #expect(error.problem.contains("failed its verification"), "\(error.problem)")
        }
    }
}
