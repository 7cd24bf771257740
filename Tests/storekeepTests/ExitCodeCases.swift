import Foundation
import SyncStore

/// One command line that brings about one row of the failure table in docs/exit-codes.md.
struct ExitCodeInvocation {
    /// What stdout holds under `--json`.
    enum Output {
        /// The JSON error document (`{"error": {…}}`).
        case errorDocument
        /// The command's own JSON report (`check`, `repair`, a migration stopped at a record).
        case report
    }

    /// The arguments (`--json` is added at the end).
    var arguments: [String]
    /// What stderr (for a report, stdout or stderr) must name: the file, line, option or value at fault.
    var names: [String]
    /// Environment variables for the run.
    var environment: [String: String] = [:]
    /// What stdout holds under `--json`.
    var output: Output = .errorDocument
}

/// A row's case: its `id` (the table's first column) and how to build its inputs in a workspace.
struct ExitCodeCase: Sendable, CustomStringConvertible {
    let id: String
    let make: @Sendable (ExitCodeWorkspace) throws -> ExitCodeInvocation

    var description: String { id }

    init(_ id: String, _ make: @escaping @Sendable (ExitCodeWorkspace) throws -> ExitCodeInvocation) {
        self.id = id
        self.make = make
    }
}

extension ExitCodeCase {
    /// Every row's case, in the table's order.
    static let all: [ExitCodeCase] = usage + badInput + otherInput + output + settingsAndReports + sync

    static let usage: [ExitCodeCase] = [
        .init("usage.unknown-command") { _ in .init(arguments: ["frobnicate"], names: ["frobnicate"]) },
        .init("usage.unknown-option") { w in .init(arguments: ["info", try w.store(), "--colour"], names: ["--colour"]) },
        .init("usage.missing-argument") { _ in .init(arguments: ["info"], names: ["<store>"]) },
        .init("usage.invalid-value") { w in
            .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--batch-size", "0"], names: ["--batch-size"])
        },
        .init("usage.contradictory-options") { _ in .init(arguments: ["version", "--quiet", "--verbose"], names: ["--quiet", "--verbose"]) },
        .init("usage.needs-mapping") { w in
            let data = try w.speechTimerData()
            return .init(arguments: ["migrate", data, "--to", w.path("t.store")], names: [data, "--mapping"])
        },
        .init("usage.needs-model") { w in
            let store = try w.store()
            return .init(arguments: ["migrate", store, "--to", w.path("t.store")], names: [store, "--model"])
        },
        .init("usage.mapping-for-store") { w in
            let store = try w.store()
            return .init(arguments: ["migrate", store, "--to", w.path("t.store"), "--model", w.speechTimerModel, "--mapping", SpeechTimerData.mapping],
                         names: [store, "--mapping"])
        },
        .init("usage.unknown-version") { w in
            .init(arguments: ["model", "show", w.speechTimerModel, "--version", "SpeechTimer 9"], names: ["SpeechTimer 9"])
        },
        .init("usage.unknown-finding-code") { w in .init(arguments: ["repair", try w.store(), "--only", "seed.dupe"], names: ["seed.dupe"]) },
        .init("usage.invalid-name") { w in
            .init(arguments: ["init", w.path("n.store"), "--model", w.speechTimerModel, "--content-name", "bad/name"], names: [w.path("n.store"), "bad/name"])
        },
        .init("usage.seed-store-source") { w in
            .init(arguments: ["seed-store", "build", try w.postcodesStore()], names: ["--from", "--from-sqlite"])
        },
        .init("usage.account-choice") { w in .init(arguments: ["account", try w.store(), "--reset"], names: ["--set"]) },
    ]

    static let badInput: [ExitCodeCase] = [
        .init("input.malformed-xml-plist") { w in
            let file = try w.write("bad.xml", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<integer>zz</integer>\n</dict>\n</plist>\n")
            return .init(arguments: ["inspect", file], names: ["\(file):5"])
        },
        .init("input.malformed-binary-plist") { w in
            // Well formed but for one leaf: an array holding a UTF-16 string of a lone surrogate
            // (D800), which only a check of every value finds.
            var bytes = Array("bplist00".utf8) + [0xA1, 0x01] + [0x61, 0xD8, 0x00] + [8, 10]
            bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 13]
            let file = w.path("lone-surrogate.plist")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return .init(arguments: ["inspect", file], names: [file, "byte 10", "surrogate"])
        },
        .init("input.plist-integer-out-of-range") { w in
            let file = try w.write("big.xml", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<integer>18446744073709551615</integer>\n</dict>\n</plist>\n")
            return .init(arguments: ["inspect", file], names: ["\(file):5", "18446744073709551615", "64-bit range"])
        },
        .init("input.unknown-source") { w in
            let file = try w.write("notes.txt", "just some words\n")
            return .init(arguments: ["inspect", file], names: [file, "looks like"])
        },
        .init("input.folder") { w in
            let folder = w.path("a-folder")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return .init(arguments: ["info", folder], names: [folder, "is a folder"])
        },
        .init("input.not-a-store") { w in
            let source = try w.coreDataStore()
            return .init(arguments: ["info", source], names: [source, "not a storekeep store"])
        },
        .init("input.newer-format") { w in
            let store = try w.store()
            try w.sqlite(store, "UPDATE sk_metadata SET value = '99' WHERE key = 'formatVersion'")
            return .init(arguments: ["info", store], names: [store, "99"])
        },
        .init("input.damaged-store") { w in
            let store = try w.storeWithoutSpeechTable()
            return .init(arguments: ["digest", store], names: [store, "e_Speech"])
        },
        .init("input.damaged-store-value") { w in
            let store = try w.store()
            try w.sqlite(store, "UPDATE sk_metadata SET value = X'FF00FE' WHERE key = 'syncEnabled'")
            return .init(arguments: ["info", store], names: [store, "sk_metadata", "syncEnabled", "value"])
        },
        .init("input.store-version-not-in-bundle") { w in
            let store = try w.store()
            let library = try ModelFiles.writeLibraryModel(in: w.directory)
            return .init(arguments: ["migrate", store, "--to", w.path("t.store"), "--model", library], names: [library, "SpeechTimer 2"])
        },
        .init("input.malformed-model") { w in
            let contents = try w.write("Bad.xcdatamodel/contents", "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Nonsense\"/>\n</entity>\n</model>\n")
            return .init(arguments: ["model", "show", w.path("Bad.xcdatamodel")], names: [contents])
        },
        .init("input.empty-model") { w in
            let contents = try w.write("Empty.xcdatamodel/contents", "")
            return .init(arguments: ["init", w.path("e.store"), "--model", w.path("Empty.xcdatamodel"), "--content-name", "e"],
                         names: [contents, "empty"])
        },
        .init("input.malformed-model-xml") { w in
            let contents = try w.write("Broken.xcdatamodel/contents", "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n</model>\n")
            return .init(arguments: ["model", "show", w.path("Broken.xcdatamodel")], names: ["\(contents):4:", "an end tag does not match its start tag"])
        },
        .init("input.inconsistent-model") { w in
            let contents = try w.write("Twice.xcdatamodel/contents", """
                <?xml version="1.0"?>
                <model>
                <entity name="A">
                <attribute name="x" optional="YES" attributeType="String"/>
                <relationship name="x" optional="YES" maxCount="1" destinationEntity="A"/>
                </entity>
                </model>

                """)
            return .init(arguments: ["init", w.path("t.store"), "--model", w.path("Twice.xcdatamodel"), "--content-name", "t"],
                         names: ["\(contents):5", "entity A has two properties named x"])
        },
        .init("input.unusable-name") { w in
            let source = try w.coreDataStore(hostile: ["UPDATE Z_PRIMARYKEY SET Z_NAME = 'Ta' || char(0) || 'sk' WHERE Z_ENT = 1"])
            return .init(arguments: ["migrate", source, "--to", w.path("t.store")], names: [source, "Ta\\0sk", "NUL"])
        },
        .init("input.clashing-names") { w in
            _ = try w.write("Case.xcdatamodel/contents", """
                <?xml version="1.0"?>
                <model>
                <entity name="Task"/>
                <entity name="TASK"/>
                </model>

                """)
            return .init(arguments: ["init", w.path("c.store"), "--model", w.path("Case.xcdatamodel"), "--content-name", "c"],
                         names: [w.path("c.store"), "entity Task", "entity TASK", "e_Task", "e_TASK"])
        },
        .init("input.malformed-mapping") { w in
            let mapping = try w.mapping(replacing: [("    from: speeches\n", "    from: speeches\n    colour: blue\n")])
            return .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--mapping", mapping], names: ["\(mapping):", "colour"])
        },
        .init("input.mapping-names-nothing") { w in
            let mapping = try w.mapping(replacing: [("from: speeches\n", "from: speechez\n")])
            return .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--mapping", mapping], names: ["\(mapping):", "speechez"])
        },
        .init("input.mapping-key-in-no-element") { w in
            let mapping = try w.mapping(replacing: [("      title: title\n", "      title: titel\n")])
            let line = try String(contentsOfFile: mapping, encoding: .utf8).components(separatedBy: "\n").firstIndex(of: "      title: titel").map { $0 + 1 } ?? 0
            return .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--mapping", mapping], names: ["\(mapping):\(line):", "titel"])
        },
        .init("input.mapping-model-version") { w in
            let mapping = try w.mapping(replacing: [("source:\n", "modelVersion: SpeechTimer 9\nsource:\n")])
            return .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--mapping", mapping], names: ["\(mapping):", "SpeechTimer 9"])
        },
        .init("input.mapping-check") { w in
            let mapping = try w.mapping(replacing: [("    version: 1 ", "    version: 2 ")])
            let data = try w.speechTimerData()
            return .init(arguments: ["migrate", data, "--to", w.path("t.store"), "--mapping", mapping], names: [data, "version"])
        },
        .init("input.malformed-step-file") { w in
            let (bundle, store) = try w.libraryBundleAndOldStore()
            let step = try w.write("Lib 1 to Lib 2.step.yaml", "from: Lib 1\nto: Lib 2\nentities: [\n")
            return .init(arguments: ["migrate", store, "--to", w.path("t.store"), "--model", bundle], names: [step])
        },
        .init("input.step-not-inferable") { w in
            let (bundle, store) = try w.libraryBundleAndOldStore()
            return .init(arguments: ["migrate", store, "--to", w.path("t.store"), "--model", bundle], names: ["Lib 1", "Lib 2", "Lib 1 to Lib 2.step.yaml"])
        },
        .init("input.damaged-core-data-store") { w in
            let source = try w.coreDataStore(hostile: ["DROP TABLE ZTAG"])
            return .init(arguments: ["inspect", source], names: [source, "ZTAG"])
        },
        .init("input.damaged-core-data-file") { w in
            let source = try w.coreDataStore(rows: 40)
            try SQLiteFileDamage.putRowOutOfOrder(in: source, table: "ZTASK")
            return .init(arguments: ["migrate", source, "--to", w.path("t.store")], names: [source, "ZTASK", "damaged"])
        },
        .init("input.core-data-model-mismatch") { w in
            let source = try w.coreDataStore()
            return .init(arguments: ["migrate", source, "--to", w.path("t.store"), "--model", w.speechTimerModel], names: [source])
        },
        .init("input.core-data-version-not-in-bundle") { w in
            let source = try w.coreDataStore()
            let bundle = try w.tasksBundle("Later", sizeTypes: ["Integer 16"], withDone: true)
            return .init(arguments: ["migrate", source, "--to", w.path("t.store"), "--model", bundle], names: [source, "'Tasks 1'", "Task.done"])
        },
        .init("input.dropped-data-refused") { w in
            let source = try w.coreDataStore()
            let bundle = try w.tasksBundleDroppingSize()
            return .init(arguments: ["migrate", source, "--to", w.path("t.store"), "--model", bundle, "--model-version", "Tasks 1", "--refuse-dropped-data"],
                         names: [source, "Task.size (20 values)", "--refuse-dropped-data"])
        },
        .init("input.core-data-versions-ambiguous") { w in
            let source = try w.coreDataStore()
            let bundle = try w.tasksBundle("Both", sizeTypes: ["Integer 16", "Integer 32"])
            return .init(arguments: ["migrate", source, "--to", w.path("t.store"), "--model", bundle], names: [source, "'Tasks 1', 'Tasks 2'", "--model-version"])
        },
        .init("input.rejected-record") { w in
            let source = try w.coreDataStore(hostile: ["UPDATE ZTASK SET ZSIZE = 'many' WHERE Z_PK = 7"])
            return .init(arguments: ["migrate", source, "--to", w.path("t.store")], names: [source, "'many'"], output: .report)
        },
        .init("input.duplicate-global-ids") { w in
            let data = try w.speechTimerData()
            try SpeechTimerData.editSpeeches(of: data, "s[1]['id'] = s[0]['id']")
            return .init(arguments: ["migrate", data, "--to", w.path("t.store"), "--mapping", SpeechTimerData.mapping], names: [data])
        },
        .init("input.repair-damaged-store") { w in
            let store = try w.storeWithoutSpeechTable()
            return .init(arguments: ["repair", store], names: [store, "e_Speech"])
        },
    ] + seedingInput

    static let seedingInput: [ExitCodeCase] = [
        .init("input.malformed-seed-set") { w in
            let set = try w.write("bad.seed.yaml", "seedSet: x\nversion: 1\nrecords:\n  - entity: SpeechType\n    colour: red\n")
            return .init(arguments: ["seed", try w.store(), "--from", set], names: ["\(set):5", "colour"])
        },
        .init("input.seed-store-entity") { w in
            let store = try w.postcodesStore()
            let script = try w.write("postcode.jsonl", #"{"op":"insert","entity":"Postcode","values":{"postcode":"X1","town":"Y"}}"# + "\n")
            return .init(arguments: ["apply", store, script], names: ["\(script):1", "\(store).seed-Postcodes"])
        },
        .init("input.seed-account") { w in
            let store = try w.store()
            try w.run(["account", store, "--set", "alice"])
            return .init(arguments: ["seed", store, "--from", SyncPeers.builtinTypes, "--account", "bob"], names: [store, "alice", "bob"])
        },
        .init("input.account-refused") { w in
            let store = try w.store()
            try w.run(["account", store, "--set", "alice"])
            return .init(arguments: ["account", store, "--set", "bob"], names: [store, "alice", "--keep-local", "--reset"])
        },
        .init("input.no-seed-configuration") { w in
            let store = try w.store()
            return .init(arguments: ["seed-store", "build", store, "--from", SyncPeers.builtinTypes], names: [store, "no seed configuration"])
        },
        .init("input.not-a-seed-store") { w in
            let store = try w.postcodesStore()
            let other = try w.postcodesStore("other.store")
            return .init(arguments: ["seed-store", "build", store, "--from-sqlite", other], names: [other, "not a seed store"])
        },
        .init("input.seed-store-sync") { w in
            let store = try w.postcodesStore()
            try w.run(["seed-store", "build", store, "--from", SeedStoreCommandTests.seedSet])
            let container = w.path("container")
            try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
            return .init(arguments: ["sync", store + ".seed-Postcodes", "--container", container], names: [store + ".seed-Postcodes", "never synced"])
        },
    ]

    static let otherInput: [ExitCodeCase] = [
        .init("missing.source") { w in .init(arguments: ["inspect", w.path("nowhere.plist")], names: [w.path("nowhere.plist")]) },
        .init("missing.store") { w in .init(arguments: ["info", w.path("nowhere.store")], names: [w.path("nowhere.store")]) },
        .init("missing.mapping") { w in
            .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--mapping", w.path("nowhere.yaml")], names: [w.path("nowhere.yaml")])
        },
        .init("missing.model") { w in .init(arguments: ["model", "show", w.path("Nowhere.xcdatamodeld")], names: [w.path("Nowhere.xcdatamodeld")]) },
        .init("missing.steps-folder") { w in
            let source = try w.coreDataStore()
            let bundle = try w.tasksBundleDroppingSize()
            return .init(arguments: ["migrate", source, "--to", w.path("t.store"), "--model", bundle, "--model-version", "Tasks 1", "--steps", w.path("no steps")],
                         names: [w.path("no steps"), "--steps"])
        },
        .init("missing.mapping-model") { w in
            let mapping = try w.mapping(replacing: [("model: SpeechTimer.xcdatamodeld", "model: Elsewhere.xcdatamodeld")])
            return .init(arguments: ["migrate", try w.speechTimerData(), "--to", w.path("t.store"), "--mapping", mapping], names: ["\(mapping):", "Elsewhere.xcdatamodeld"])
        },
        .init("missing.seed-set") { w in
            .init(arguments: ["seed", try w.store(), "--from", w.path("nowhere.seed.yaml")], names: [w.path("nowhere.seed.yaml")])
        },
        .init("missing.external-data") { w in
            try w.write("Files.xcdatamodel/contents", """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="File"><attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>
                </model>
                """)
            let source = w.path("Files.sqlite")
            try w.sqlite(source, """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZFILE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATA BLOB);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'File', 0, 1);
                INSERT INTO Z_METADATA VALUES (1, 'FILES-UUID', NULL);
                INSERT INTO ZFILE VALUES (1, 1, 1, CAST(X'02' || CAST('0A0B-GONE' AS BLOB) || X'00' AS BLOB));
                """)
            return .init(arguments: ["migrate", source, "--to", w.path("t.store"), "--model", w.path("Files.xcdatamodel")], names: ["0A0B-GONE"])
        },
        .init("internal.verification") { w in
            let (source, target) = try w.tamperedMigration()
            return .init(arguments: ["migrate", source, "--to", target, "--batch-size", "4", "--on-error", "skip"], names: [target, "verification failed"])
        },
    ]

    static let output: [ExitCodeCase] = [
        .init("output.target-folder") { w in
            let folder = w.path("out")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return .init(arguments: ["migrate", try w.coreDataStore(), "--to", folder], names: [folder, "is a folder"])
        },
        .init("output.target-holds-data") { w in
            let target = w.path("t.store")
            let first = try StorekeepProcess.run(["migrate", try w.speechTimerData("one.plist", speeches: 5), "--to", target, "--mapping", SpeechTimerData.mapping])
            guard first.status == 0 else { throw StorekeepProcess.HarnessError(description: "\(first)") }
            let other = try w.speechTimerData("two.plist", speeches: 6)
            return .init(arguments: ["migrate", other, "--to", target, "--mapping", SpeechTimerData.mapping], names: [target, "already holds data"])
        },
        .init("output.target-failed-run") { w in
            let (source, target) = try w.tamperedMigration()
            let failed = try StorekeepProcess.run(["migrate", source, "--to", target, "--batch-size", "4", "--on-error", "skip"])
            guard failed.status == 70 else { throw StorekeepProcess.HarnessError(description: "\(failed)") }
            return .init(arguments: ["migrate", source, "--to", target, "--batch-size", "4", "--on-error", "skip"], names: [target, "failed its verification"])
        },
        .init("output.no-folder") { w in
            let target = w.path("no/such/folder/t.store")
            return .init(arguments: ["init", target, "--model", w.speechTimerModel, "--content-name", "x"], names: [target])
        },
        .init("output.exists") { w in
            let store = try w.store()
            return .init(arguments: ["init", store, "--model", w.speechTimerModel, "--content-name", "x"], names: [store, "already exists"])
        },
        .init("io.read-failed") { w in
            let source = try w.coreDataStore()
            // A -journal SQLite must read but cannot: a folder of that name.
            try FileManager.default.createDirectory(atPath: source + "-journal", withIntermediateDirectories: false)
            return .init(arguments: ["inspect", source], names: [source, "I/O error"])
        },
        .init("busy.locked") { w in
            let store = try w.store()
            try w.lock(store, alive: true)
            return .init(arguments: ["repair", store], names: [store, "locked by"])
        },
    ]

    static let settingsAndReports: [ExitCodeCase] = [
        .init("config.missing-file") { w in .init(arguments: ["version", "--config", w.path("nowhere.conf")], names: [w.path("nowhere.conf")]) },
        .init("config.malformed-line") { w in
            let file = try w.write("a.conf", "json: true\nthis line has no colon\n")
            return .init(arguments: ["version", "--config", file], names: ["\(file), line 2"])
        },
        .init("config.unknown-key") { w in
            let file = try w.write("b.conf", "colour: blue\n")
            return .init(arguments: ["version", "--config", file], names: ["\(file), line 1", "colour"])
        },
        .init("config.duplicate-key") { w in
            let file = try w.write("c.conf", "quiet: yes\nquiet: no\n")
            return .init(arguments: ["version", "--config", file], names: ["\(file), line 2", "quiet"])
        },
        .init("config.invalid-value") { _ in
            .init(arguments: ["version"], names: ["STOREKEEP_QUIET", "maybe"], environment: ["STOREKEEP_QUIET": "maybe"])
        },
        .init("config.conflict") { w in
            let file = try w.write("d.conf", "quiet: true\nverbose: true\n")
            return .init(arguments: ["version", "--config", file], names: [file, "quiet", "verbose"])
        },
        .init("check.warnings") { w in
            let store = try w.store()
            try w.lock(store, alive: false)
            return .init(arguments: ["check", store], names: [store, "lock.stale"], output: .report)
        },
        .init("check.violations") { w in
            let store = try w.storeWithoutSpeechTable()
            return .init(arguments: ["check", store], names: [store, "schema.mismatch"], output: .report)
        },
        .init("check.unchecked") { w in .init(arguments: ["check", w.path("nowhere.store")], names: [w.path("nowhere.store")], output: .report) },
        .init("repair.leftovers") { w in
            let store = try w.store()
            // A speech without its required type, and the entity's policy is to keep invalid records.
            _ = try SyncStore.open(at: store).save(author: "app") { tx in
                try tx.insert("Speech", values: ["speakerName": .string("Bo"), "date": .date(Date()), "duration": .double(1)])
            }
            return .init(arguments: ["repair", store, "--no-backup"], names: [store, "record.requiredRelationship"], output: .report)
        },
    ]
}
