import Foundation
import GRDB
import ObjectModel
import SyncStore

/// A fresh folder and the inputs the exit-code cases build in it: stores, property lists, mappings,
/// models and Core Data stores, each made on demand with the built binary or plain SQLite.
struct ExitCodeWorkspace {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `name` in the folder.
    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// The bundled Speech Timer model.
    var speechTimerModel: String { ModelFiles.speechTimer }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A new, empty Speech Timer store made by `storekeep init`.
    func store(_ name: String = "s.store") throws -> String {
        let store = path(name)
        let made = try StorekeepProcess.run(["init", store, "--model", speechTimerModel, "--content-name", "speeches"])
        guard made.status == 0 else { throw StorekeepProcess.HarnessError(description: "init failed: \(made)") }
        return store
    }

    /// A new, empty store of the Postcodes example model (a seed configuration) made by `storekeep init`.
    func postcodesStore(_ name: String = "p.store") throws -> String {
        let store = path(name)
        try run(["init", store, "--model", SeedStoreCommandTests.model, "--content-name", "ratings"])
        return store
    }

    /// Runs `storekeep` with `arguments`, which must succeed (a step that sets a case up).
    func run(_ arguments: [String]) throws {
        let result = try StorekeepProcess.run(arguments)
        guard result.status == 0 else { throw StorekeepProcess.HarnessError(description: "\(arguments.joined(separator: " ")) failed: \(result)") }
    }

    /// A Speech Timer store whose `e_Speech` table was dropped by hand.
    func storeWithoutSpeechTable() throws -> String {
        let store = try self.store("damaged.store")
        try sqlite(store, "DROP TABLE e_Speech")
        return store
    }

    /// A Speech Timer 1 data file (binary unless `format` is `xml`) of `speeches` speeches.
    func speechTimerData(_ name: String = "data.plist", speeches: Int = 12, format: String = "binary") throws -> String {
        try SpeechTimerData.write(in: directory, name: name, speeches: speeches, format: format)
    }

    /// The shipped mapping with `replace` applied to its text, written beside the model (so that
    /// `model:` still resolves) under a unique name; the returned path is the copy's.
    func mapping(replacing replace: [(String, String)]) throws -> String {
        var text = try String(contentsOfFile: SpeechTimerData.mapping, encoding: .utf8)
        for (old, new) in replace {
            guard text.contains(old) else { throw StorekeepProcess.HarnessError(description: "the mapping has no '\(old)'") }
            text = text.replacingOccurrences(of: old, with: new)
        }
        let folder = directory.url.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = folder.appendingPathComponent("SpeechTimer.xcdatamodeld")
        if !FileManager.default.fileExists(atPath: model.path) {
            try FileManager.default.copyItem(atPath: speechTimerModel, toPath: model.path)
        }
        let file = folder.appendingPathComponent("m-\(UUID().uuidString).mapping.yaml")
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// A Core Data store `Tasks.sqlite` (no model cache) of `rows` tasks; `hostile` SQL runs last.
    func coreDataStore(_ name: String = "Tasks.sqlite", rows: Int = 20, hostile: [String] = []) throws -> String {
        let store = path(name)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZSIZE INTEGER);
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Task', 0, \(rows)), (2, 'Tag', 0, 1);
                INSERT INTO Z_METADATA VALUES (1, 'TASKS-UUID', NULL);
                INSERT INTO ZTAG VALUES (1, 2, 1, 'home');
                """)
            for key in 0..<rows {
                try db.execute(sql: "INSERT INTO ZTASK VALUES (?, 1, 1, ?, ?)", arguments: [key + 1, "task \(key + 1)", key])
            }
            for statement in hostile { try db.execute(sql: statement) }
        }
        try queue.close()
        return store
    }

    /// A two-version model bundle `Lib.xcdatamodeld` whose step from `Lib 1` to `Lib 2` cannot be
    /// inferred (`Book.pages` turns from Integer 16 into String), and a store of `Lib 1`.
    func libraryBundleAndOldStore() throws -> (bundle: String, store: String) {
        let bundle = directory.url.appendingPathComponent("Lib.xcdatamodeld")
        for (version, pagesType) in [("Lib 1", "Integer 16"), ("Lib 2", "String")] {
            try write("Lib.xcdatamodeld/\(version).xcdatamodel/contents", """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Book">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <attribute name="pages" optional="YES" attributeType="\(pagesType)"/>
                    </entity>
                </model>
                """)
        }
        try write("Lib.xcdatamodeld/.xccurrentversion", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Lib 2.xcdatamodel</string></dict></plist>
            """)
        let store = path("lib1.store")
        let made = try StorekeepProcess.run(["init", store, "--model", bundle.path, "--model-version", "Lib 1", "--content-name", "lib"])
        guard made.status == 0 else { throw StorekeepProcess.HarnessError(description: "init failed: \(made)") }
        return (bundle.path, store)
    }

    /// A bundle `NAME.xcdatamodeld` of the Task and Tag entities of ``coreDataStore(_:rows:hostile:)``,
    /// one version per entry of `sizeTypes` (`Tasks 1`, `Tasks 2`, …: `Task.size`'s type in it),
    /// with `Task.done` too when `withDone` (a column that store does not have).
    func tasksBundle(_ name: String, sizeTypes: [String], withDone: Bool = false) throws -> String {
        for (index, sizeType) in sizeTypes.enumerated() {
            let done = withDone ? "\n        <attribute name=\"done\" optional=\"YES\" attributeType=\"Boolean\"/>" : ""
            try write("\(name).xcdatamodeld/Tasks \(index + 1).xcdatamodel/contents", """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Task">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <attribute name="size" optional="YES" attributeType="\(sizeType)"/>\(done)
                    </entity>
                    <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>
                </model>
                """)
        }
        return path("\(name).xcdatamodeld")
    }

    /// A bundle `Drop.xcdatamodeld` whose `Tasks 1` fits ``coreDataStore(_:rows:hostile:)`` (name it: the
    /// store has no hashes, and both versions fit its tables) and whose
    /// current version `Tasks 2` has no `Task.size`: migrating the store drops its sizes.
    func tasksBundleDroppingSize() throws -> String {
        _ = try tasksBundle("Drop", sizeTypes: ["Integer 64"])
        try write("Drop.xcdatamodeld/Tasks 2.xcdatamodel/contents", """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Task"><attribute name="title" optional="YES" attributeType="String"/></entity>
                <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>
            </model>
            """)
        try write("Drop.xcdatamodeld/.xccurrentversion", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Tasks 2.xcdatamodel</string></dict></plist>
            """)
        return path("Drop.xcdatamodeld")
    }

    /// A migration of `Tasks.sqlite` stopped at its rejected row 15 after committing the rows
    /// before it, and a committed record then changed by hand in the target: resuming it fails
    /// its verification. Returns the source and the target.
    func tamperedMigration() throws -> (source: String, target: String) {
        let source = try coreDataStore(rows: 40, hostile: ["UPDATE ZTASK SET ZSIZE = 'many' WHERE Z_PK = 15"])
        let target = path("tampered.store")
        let stopped = try StorekeepProcess.run(["migrate", source, "--to", target, "--batch-size", "4"])
        guard stopped.status == 65 else { throw StorekeepProcess.HarnessError(description: "the first run did not stop: \(stopped)") }
        try sqlite(target, "UPDATE e_Task SET a_TITLE = 'changed by hand' WHERE _gid LIKE '%/p3'")
        return (source, target)
    }

    /// A lock file for `store` naming a process of this host: this test process (alive) or a pid
    /// that does not exist (a stale lock).
    func lock(_ store: String, alive: Bool) throws {
        let owner = StoreLockOwnerFile(command: "storekeep migrate", host: ProcessInfo.processInfo.hostName,
                                       pid: alive ? ProcessInfo.processInfo.processIdentifier : Self.deadPID(),
                                       started: "2026-01-01T00:00:00Z")
        try JSONEncoder().encode(owner).write(to: URL(fileURLWithPath: store + ".lock"))
    }

    /// Runs SQL on a SQLite file.
    func sqlite(_ file: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: file)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    /// A pid no process has.
    private static func deadPID() -> Int32 {
        var pid: Int32 = 4_000_000
        while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
        return pid
    }
}

/// The fields of a lock file (`StoreMaintenance.StoreLock.Owner`), written by hand.
struct StoreLockOwnerFile: Codable {
    var command: String
    var host: String
    var pid: Int32
    var started: String
}
