import Foundation
import ObjectModel
import StoreMaintenance
import SyncStore
import Testing

/// `storekeep repair --dry-run` predicts the real run: the same plan (compared as JSON), the same
/// exit status, including what the fixes themselves cause; the real run reports only what it did,
/// and makes no backup when it changes nothing.
@Suite("storekeep repair: the dry run predicts the run")
struct RepairDryRunTests {
    /// Runs the dry run, then the real run, on `path`; expects equal plans and exit statuses.
    private func dryRunThenRun(_ path: String, _ extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (dry: ProcessResult, real: ProcessResult, plan: [String: Any], report: [String: Any]) {
        let dry = try StorekeepProcess.run(["repair", path, "--dry-run", "--json"] + extra)
        let real = try StorekeepProcess.run(["repair", path, "--json"] + extra)
        let planned = try dry.jsonObject()
        let report = try real.jsonObject()
        let dryPlan = try #require(planned["plan"] as? [String: Any], sourceLocation: sourceLocation)
        let realPlan = try #require(report["plan"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(NSDictionary(dictionary: dryPlan) == NSDictionary(dictionary: realPlan),
                "the dry run planned\n\(dry.stdout)\nthe run planned\n\(real.stdout)", sourceLocation: sourceLocation)
        #expect(dry.status == real.status, "dry run \(dry.status), run \(real.status)\n\(dry)\n\(real)", sourceLocation: sourceLocation)
        return (dry, real, dryPlan, report)
    }

    private func backups(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".backup") }
    }

    private func fixes(_ plan: [String: Any]) -> [[String: Any]] { plan["fixes"] as? [[String: Any]] ?? [] }
    private func leftovers(_ plan: [String: Any]) -> [[String: Any]] { plan["leftovers"] as? [[String: Any]] ?? [] }

    @Test("files with names that are not blob names are removed when old; a young one is kept and reported; no backup when nothing changes")
    func strayFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("s.store").path
        let blobs = try RepairShelfModel.store(at: path).blobDirectory
        try FileManager.default.createDirectory(at: blobs.appendingPathComponent("ab"), withIntermediateDirectories: true)
        let old = [blobs.appendingPathComponent("notes.txt").path, blobs.appendingPathComponent("ab/not-a-blob").path]
        let young = blobs.appendingPathComponent("ab/written-a-minute-ago").path
        for file in old + [young] { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
        for file in old { try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: young)

        let first = try dryRunThenRun(path)
        #expect(first.real.status == 1, "the young file is left: \(first.real)")
        #expect(Set(fixes(first.plan).compactMap { $0["file"] as? String }) == Set(old))
        #expect(leftovers(first.plan).compactMap { $0["file"] as? String } == [young])
        #expect(first.report["fixesApplied"] as? Int == 2)
        for file in old { #expect(!FileManager.default.fileExists(atPath: file), "\(file) was reported removed") }
        #expect(FileManager.default.fileExists(atPath: young))
        #expect(try backups(in: directory).count == 1)

        // Nothing left to change: no backup, the same exit status, the young file still reported.
        let second = try dryRunThenRun(path)
        #expect(fixes(second.plan).isEmpty && second.real.status == 1)
        #expect(second.report["backup"] == nil)
        #expect(try backups(in: directory).count == 1, "a run that changes nothing made a backup")

        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: young)
        let third = try dryRunThenRun(path, ["--no-backup"])
        #expect(third.real.status == 0, "\(third.real)")
        #expect(!FileManager.default.fileExists(atPath: young))
        let text = try StorekeepProcess.run(["repair", path])
        #expect(text.status == 0 && text.stdout.contains("nothing to repair"), "\(text)")
    }

    @Test("emptying a required to-one plans what it causes: the record is deleted under the delete policy, reported under keep")
    func fixesThatCauseFindings() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("s.store").path
        let (book, note, shelved) = try {
            let store = try RepairShelfModel.store(at: path)
            return try store.save(author: "app") { tx in
                let shelf = try tx.insert("Shelf")
                let book = try tx.insert("Book", values: ["title": .string("lost")])
                let shelved = try tx.insert("Book", values: ["title": .string("kept")])
                try tx.setToOne("shelf", of: book, to: shelf)
                try tx.setToOne("shelf", of: shelved, to: shelf)
                let note = try tx.insert("Note", values: ["text": .string("n")])
                try tx.setToOne("book", of: note, to: shelved)
                return (book, note, shelved)
            }
        }()
        try RepairShelfModel.raw(path, "UPDATE e_Book SET r_shelf = 'GONE' WHERE _gid = ?", [book.rawValue])
        try RepairShelfModel.raw(path, "UPDATE e_Note SET r_book = 'ALSO-GONE' WHERE _gid = ?", [note.rawValue])

        let result = try dryRunThenRun(path, ["--no-backup"])
        let planned = fixes(result.plan).map { "\($0["action"] as? String ?? "") \($0["code"] as? String ?? "") \(($0["globalIDs"] as? [String]) ?? [])" }
        #expect(planned == [
            "nullifyReference relationship.danglingTarget \([book.rawValue])",
            "nullifyReference relationship.danglingTarget \([note.rawValue])",
            "deleteRecord record.requiredRelationship \([book.rawValue])",
        ])
        // The note's policy is keep: emptied, it lacks its required book, and that is left for the user.
        #expect(leftovers(result.plan).map { $0["code"] as? String } == ["record.requiredRelationship"])
        #expect(leftovers(result.plan).first?["globalIDs"] as? [String] == [note.rawValue])
        #expect(result.real.status == 1)
        #expect(result.report["fixesApplied"] as? Int == 3)
        let store = try SyncStore.open(at: path, readOnly: true)
        #expect(try store.record(book) == nil)
        #expect(try store.record(note)?.toOne["book"] == nil)
        #expect(try store.record(shelved) != nil)
        let remaining = (result.report["remaining"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(remaining == ["record.requiredRelationship"], "only what the plan said it leaves: \(result.report)")
    }

    @Test("a plan that fixes everything exits 0 in both runs, and check is clean after it")
    func everythingFixed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("s.store").path
        let book = try RepairShelfModel.store(at: path).save(author: "app") { tx in
            let book = try tx.insert("Book", values: ["title": .string("lost")])
            try tx.setToOne("shelf", of: book, to: try tx.insert("Shelf"))
            return book
        }
        try RepairShelfModel.raw(path, "UPDATE e_Book SET r_shelf = 'GONE' WHERE _gid = ?", [book.rawValue])
        let result = try dryRunThenRun(path, ["--no-backup"])
        #expect(result.real.status == 0, "\(result.real)")
        #expect(fixes(result.plan).map { $0["action"] as? String } == ["nullifyReference", "deleteRecord"])
        #expect(try StorekeepProcess.run(["check", path]).status == 0)
    }

    @Test("a deletion a Deny rule would refuse is planned as left for you, not as a fix; nothing changes, no backup")
    func denyBlocksADeletion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("s.store").path
        let author = try RepairShelfModel.store(at: path).save(author: "app") { tx in
            let author = try tx.insert("Author")   // no name: invalid, and its policy is delete
            try tx.setToOne("author", of: try tx.insert("Work"), to: author)
            return author
        }
        let result = try dryRunThenRun(path)
        #expect(fixes(result.plan).isEmpty)
        let left = leftovers(result.plan)
        #expect(left.map { $0["code"] as? String } == ["record.requiredAttribute"])
        #expect((left.first?["reason"] as? String)?.contains("Deny") == true, "\(left)")
        #expect(result.real.status == 1)
        #expect(try result.report["backup"] == nil && backups(in: directory).isEmpty)
        #expect(try SyncStore.open(at: path, readOnly: true).record(author) != nil)
    }

    @Test("a stale lock is planned with the same words by the dry run and by the run that takes it over")
    func staleLock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("s.store").path
        _ = try RepairShelfModel.store(at: path)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let owner = StoreLock.Owner(command: "storekeep migrate", host: ProcessInfo.processInfo.hostName,
                                    pid: finished.processIdentifier, started: "2026-01-01T00:00:00Z")
        let lockPath = StoreLock.lockPath(for: path)
        try JSONEncoder().encode(owner).write(to: URL(fileURLWithPath: lockPath))
        let result = try dryRunThenRun(path, ["--only", "seed.duplicate"])
        #expect(fixes(result.plan).map { $0["action"] as? String } == ["takeOverStaleLock"])
        #expect(result.real.status == 0, "\(result.real)")
        #expect(!FileManager.default.fileExists(atPath: lockPath))
        #expect(try backups(in: directory).isEmpty, "taking a lock over changes nothing in the store")
    }
}
