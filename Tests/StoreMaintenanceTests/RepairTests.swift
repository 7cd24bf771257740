import Foundation
import GRDB
import ObjectModel
import Testing
@testable import StoreMaintenance
import SyncStore

/// `StoreRepairer`: each fix, determinism, idempotence, and never deleting what the user edited.
@Suite struct RepairTests {
    let folder: URL
    let store: SyncStore

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try RepairModel.store(in: folder)
    }

    private func repair(_ options: RepairOptions = RepairOptions(backup: false), at path: String? = nil) throws -> RepairReport {
        try StoreRepairer(path: path ?? store.path, options: options).run()
    }

    private func codes(at path: String? = nil) -> [CheckCode] {
        StoreChecker(options: CheckOptions()).check(storeAt: path ?? store.path).findings.map(\.code)
    }

    private func seedCategory(_ id: String, version: Int, color: String? = nil) throws {
        try store.save(author: "storekeep.seed") { tx in
            var values: [String: AttributeValue] = ["name": .string("Work")]
            if let color { values["color"] = .string(color) }
            try tx.insert("Category", id: GlobalID(id), values: values, seed: SeedMark(set: "categories", version: version))
        }
    }

    private func item(_ title: String?, category: String? = nil) throws -> GlobalID {
        try store.save(author: "app") { tx in
            let id = try tx.insert("Item", values: title.map { ["title": .string($0)] } ?? [:])
            if let category { try tx.setToOne("category", of: id, to: GlobalID(category)) }
            return id
        }
    }

    private func raw(_ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { try $0.execute(sql: sql, arguments: arguments) }
        try queue.close()
    }

    @Test func seedDuplicatesMergeIntoTheNewestVersionWithTheirLinks() throws {
        try seedCategory("C-3", version: 1)
        try seedCategory("C-2", version: 2)
        try seedCategory("C-1", version: 2)
        let items = try ["C-1", "C-2", "C-3"].map { (code: String) in try item("i-\(code)", category: code) }
        #expect(codes().contains(.seedDuplicate))

        let report = try repair()
        let merge = try #require(report.plan.fixes.first { $0.action == .mergeDuplicates })
        #expect(merge.keeper == "C-1")           // version 2, and the smaller global ID of the two
        #expect(merge.removed == ["C-2", "C-3"])
        #expect(try store.globalIDs(of: "Category") == [GlobalID("C-1")])
        for id in items { #expect(try store.related("category", of: id) == [GlobalID("C-1")]) }
        #expect(try store.transactions().last?.author == StoreRepairer.author)
        #expect(report.remaining.isEmpty && codes().isEmpty)
    }

    @Test func aSeedTheUserEditedIsNeverDeleted() throws {
        try seedCategory("C-1", version: 2)
        try seedCategory("C-2", version: 1)
        try seedCategory("C-3", version: 1)
        try store.save(author: "app") { try $0.update(GlobalID("C-3"), values: ["color": .string("teal")]) }
        let report = try repair()
        // The keeper is the newest version whatever was edited (every peer keeps the same one); the
        // edited record stays beside it, and only the untouched one goes.
        #expect(report.plan.fixes.first { $0.action == .mergeDuplicates }?.keeper == "C-1")
        #expect(report.plan.fixes.first { $0.action == .mergeDuplicates }?.removed == ["C-2"])
        #expect(try store.globalIDs(of: "Category") == [GlobalID("C-1"), GlobalID("C-3")])
        #expect(try store.record(GlobalID("C-3"))?.values["color"] == .string("teal"))
        #expect(report.plan.leftovers.first?.globalIDs == ["C-1", "C-3"])
    }

    @Test func twoEditedSeedsAreBothKeptAndReported() throws {
        for id in ["C-1", "C-2", "C-3"] { try seedCategory(id, version: 1) }
        for id in ["C-2", "C-3"] {
            try store.save(author: "app") { try $0.update(GlobalID(id), values: ["color": .string(id)]) }
        }
        let report = try repair()
        // C-1 is kept (same version, smallest ID); the edited C-2 and C-3 stay beside it.
        #expect(Set(try store.globalIDs(of: "Category")) == [GlobalID("C-1"), GlobalID("C-2"), GlobalID("C-3")])
        #expect(report.plan.leftovers.map(\.code) == [.seedDuplicate])
        #expect(report.plan.leftovers.first?.globalIDs == ["C-1", "C-2", "C-3"])
    }

    @Test func duplicateSingletonsKeepTheEarliestWithTheLinksOfAll() throws {
        let first = try store.save(author: "app") { try $0.insert("Preferences", values: ["theme": .string("dark")]) }
        let second = try store.save(author: "app") { try $0.insert("Preferences", values: ["theme": .string("light")]) }
        let favorite = try item("fav")
        try store.save(author: "app") { try $0.setToMany("favorites", of: second, to: [favorite]) }
        _ = try repair()
        #expect(try store.globalIDs(of: "Preferences") == [first])
        #expect(try store.related("favorites", of: first) == [favorite])
        #expect(codes().isEmpty)
    }

    @Test func invalidRecordsFollowTheirEntitysPolicy() throws {
        let noTitle = try item(nil)
        let tooHigh = try store.save(author: "app") { try $0.insert("Item", values: ["title": .string("x"), "priority": .integer(99)]) }
        let fine = try item("fine")
        let keptNote = try store.save(author: "app") { try $0.insert("Note") }   // text required, policy keep
        let report = try repair()
        #expect(try store.record(noTitle) == nil)      // Item: policy delete
        #expect(try store.record(tooHigh) == nil)
        #expect(try store.record(fine) != nil)
        #expect(try store.record(keptNote) != nil)     // Note: policy keep
        #expect(report.plan.leftovers.map(\.code) == [.recordRequiredAttribute])
        #expect(report.remaining.map(\.globalIDs) == [[keptNote.rawValue]])
    }

    @Test func danglingReferencesAreNullifiedWhateverThePolicy() throws {
        let note = try store.save(author: "app") { try $0.insert("Note", values: ["text": .string("n")]) }
        let favorite = try item("fav")
        let preferences = try store.save(author: "app") { tx in
            let id = try tx.insert("Preferences")
            try tx.setToMany("favorites", of: id, to: [favorite])
            return id
        }
        try raw("UPDATE e_Note SET r_item = 'GONE' WHERE _gid = ?", [note.rawValue])
        try raw("INSERT INTO j_Preferences_favorites (owner, target) VALUES (?, 'ALSO-GONE')", [preferences.rawValue])
        #expect(Set(codes()) == [.relationshipDanglingTarget, .relationshipDanglingJoinRow])
        _ = try repair()
        #expect(try store.record(note)?.toOne["item"] == nil)
        #expect(try store.related("favorites", of: preferences) == [favorite])
        #expect(codes().isEmpty)
    }

    @Test func aSharedOneToOneSlotIsReleasedUnderTheNullifyPolicy() throws {
        let (person, badge, intruder) = try store.save(author: "app") { tx in
            let person = try tx.insert("Person", values: ["name": .string("p")])
            let badge = try tx.insert("Badge", values: ["number": .integer(1)])
            let intruder = try tx.insert("Badge", values: ["number": .integer(2)])
            try tx.setToOne("badge", of: person, to: badge)
            return (person, badge, intruder)
        }
        try raw("UPDATE e_Badge SET r_holder = ? WHERE _gid = ?", [person.rawValue, intruder.rawValue])
        #expect(codes().contains(.relationshipSharedTarget))
        _ = try repair()
        #expect(try store.related("holder", of: badge) == [person])
        #expect(try store.record(intruder)?.toOne["holder"] == nil)
        #expect(try store.record(intruder) != nil)
        #expect(codes().isEmpty)
    }

    @Test func onlyOldOrphanedFilesAreRemovedAndMissingOnesAreReported() throws {
        let bytes = Data(repeating: 7, count: 9000)
        let attachment = try store.save(author: "app") { try $0.insert("Attachment", values: ["data": .binary(bytes)]) }
        try store.save(author: "app") { try $0.delete(attachment) }   // leaves its file behind
        let orphan = store.blobDirectory.appendingPathComponent(String(SHA256.hexDigest(of: bytes).prefix(2)))
            .appendingPathComponent(SHA256.hexDigest(of: bytes))
        #expect(FileManager.default.fileExists(atPath: orphan.path))
        // Beside this open store, check leaves out files younger than a minute; five minutes old, the
        // file is reported, but is still too young for repair's 15-minute grace.
        #expect(!codes().contains(.blobOrphaned))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -300)], ofItemAtPath: orphan.path)
        #expect(codes().contains(.blobOrphaned))

        // Planned as left (a dry run says the same), not as a removal the run then does not make.
        let young = try repair()
        #expect(young.plan.fixes.isEmpty && young.fixesApplied == 0)
        #expect(young.plan.leftovers.map(\.file) == [orphan.path])
        #expect(FileManager.default.fileExists(atPath: orphan.path))

        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: orphan.path)
        _ = try repair()
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(codes().isEmpty)
    }

    @Test func twoCopiesRepairedSeparatelyEndEqualAndASecondRunFindsNothing() throws {
        try seedCategory("C-2", version: 1)
        try seedCategory("C-1", version: 1)
        _ = try item("a", category: "C-2")
        _ = try item(nil, category: "C-1")
        _ = try store.save(author: "app") { try $0.insert("Preferences") }
        _ = try store.save(author: "app") { try $0.insert("Preferences") }
        let copy = folder.appendingPathComponent("copy.store").path
        try store.backup(to: copy)

        _ = try repair()
        _ = try repair(at: copy)
        #expect(try store.contentDigest() == SyncStore.open(at: copy, readOnly: true).contentDigest())

        let again = try repair()
        #expect(again.plan.fixes.isEmpty && again.plan.leftovers.isEmpty)
    }

    @Test func aDryRunChangesNothingAndARealRunBacksUpFirst() throws {
        try seedCategory("C-1", version: 1)
        try seedCategory("C-2", version: 1)
        let before = try store.contentDigest()
        let planned = try repair(RepairOptions(dryRun: true))
        #expect(planned.plan.fixes.count == 1 && !planned.applied && planned.backup == nil)
        #expect(try store.contentDigest() == before)
        #expect(!FileManager.default.fileExists(atPath: StoreLock.lockPath(for: store.path)))

        let done = try repair(RepairOptions())
        let backup = try #require(done.backup)
        #expect(try SyncStore.open(at: backup, readOnly: true).contentDigest() == before)
        #expect(try store.contentDigest() != before)
    }

    @Test func aStoreWithDamagedMetadataIsRefused() throws {
        try seedCategory("C-1", version: 1)
        try seedCategory("C-2", version: 1)
        try raw("DELETE FROM sk_metadata WHERE key = 'modelHash'")
        #expect(throws: MaintenanceError.self) { try repair() }
        #expect(try store.globalIDs(of: "Category").count == 2)
    }

    @Test func onlyRestrictsTheCodesRepaired() throws {
        try seedCategory("C-1", version: 1)
        try seedCategory("C-2", version: 1)
        let noTitle = try item(nil)
        let report = try repair(RepairOptions(only: [.seedDuplicate], backup: false))
        #expect(report.plan.ignored == 1)
        #expect(try store.record(noTitle) != nil)
        #expect(try store.globalIDs(of: "Category").count == 1)
    }

    @Test func aReferenceToARowNamingNoEntityIsEmptiedWithoutStoppingTheRepair() throws {
        let target = try item("target")
        let note = try store.save(author: "app") { tx in
            let note = try tx.insert("Note", values: ["text": .string("n")])
            try tx.setToOne("item", of: note, to: target)
            return note
        }
        try raw("UPDATE e_Item SET _entity = 'Bogus' WHERE _gid = ?", [target.rawValue])
        #expect(codes().contains(.relationshipWrongTargetEntity))
        let report = try repair()
        #expect(report.plan.fixes.contains { $0.action == .nullifyReference && $0.globalIDs == [note.rawValue] })
        #expect(report.fixesApplied == report.plan.fixes.count)
        #expect(try store.record(note)?.toOne["item"] == nil)
        #expect(report.plan.leftovers.map(\.code) == [.recordUnknownEntity])
    }
}
