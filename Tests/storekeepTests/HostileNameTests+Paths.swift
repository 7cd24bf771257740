import Foundation
import GRDB
import Testing

/// Names from files that become folder or file names: a seed configuration's name (its seed store
/// is `<store>.seed-<configuration>`), a store's own content name, peer ID and model hash (folders
/// of a container), a redirect's content name and baseline. Each is refused with exit 65 naming it;
/// nothing is read or written outside the store's folder or the container.
extension HostileNameTests {
    /// A model of one seed entity `County` in configuration `configuration` (marked seed data) and
    /// one user entity `Note`.
    static func seedModelContents(configuration: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="County">
                <attribute name="code" optional="YES" attributeType="String"/>
                <userInfo>
                    <entry key="storekeep.seedKey" value="code"/>
                </userInfo>
            </entity>
            <entity name="Note">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <configuration name="\(xmlEscaped(configuration))">
                <memberEntity name="County"/>
                <userInfo>
                    <entry key="storekeep.seedData" value="YES"/>
                </userInfo>
            </configuration>
        </model>

        """
    }

    static let pathNames: [Name] = [
        .init(description: "a climb out of the folder", text: "../../escape"),
        .init(description: "a slash", text: "sub/escape"),
        .init(description: "an absolute path", text: "/tmp/escape"),
        .init(description: "two dots", text: "a..b"),
    ]

    @Test("a configuration named with a path is refused naming it (its seed store would be written elsewhere)", arguments: pathNames)
    func configurationPathName(_ name: Name) throws {
        let work = try Workspace()
        defer { work.remove() }
        let folder = work.directory.appendingPathComponent("Seed.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.seedModelContents(configuration: name.text).utf8).write(to: folder.appendingPathComponent("contents"))
        // A folder the path would resolve through, were the name taken.
        try FileManager.default.createDirectory(atPath: work.path("s.store.seed-"), withIntermediateDirectories: true)

        let made = try work.run(["init", work.path("s.store"), "--model", folder.path, "--content-name", "seeds"])
        #expect(made.status == 65, "\(made.description.prefix(2000))")
        #expect(made.stderr.contains(name.text) && made.stderr.contains("configuration"), "\(made.description.prefix(2000))")
        #expect(made.stderr.contains("\(folder.path)/contents"), "the model file is named: \(made.description.prefix(2000))")
        #expect(!FileManager.default.fileExists(atPath: work.path("s.store")))
        let shown = try work.run(["model", "show", folder.path])
        #expect(shown.status == 65, "\(shown.description.prefix(2000))")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/escape"))
    }

    @Test("a store whose own peer ID, content name, model hash or seed configuration is a path is refused before sync writes anything",
          arguments: [
            ("peerID", "../../../../escape"), ("contentName", "../escape"), ("modelHash", "../../escape"), ("seedConfiguration", "../escape"),
          ])
    func storeMetadataPathName(_ damage: (key: String, value: String)) throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let container = try w.container("box/container")
        let store = try w.peer("A")
        try w.apply(store, [ExitCodeWorkspace.typeLine("T1")])
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO sk_metadata (key, value) VALUES (?, ?)", arguments: [damage.key, damage.value])
        }
        try queue.close()

        let sync = try StorekeepProcess.run(["sync", store, "--container", container])
        #expect(sync.status == 65, "\(sync)")
        for word in [store, "sk_metadata", damage.key, damage.value] { #expect(sync.stderr.contains(word), "\(word): \(sync)") }
        let info = try StorekeepProcess.run(["info", store])
        #expect(info.status == 65, "\(info)")
        // check says where: a damaged value of sk_metadata (a wrong model hash: the model check's finding).
        let check = try StorekeepProcess.run(["check", store, "--json"])
        #expect(check.status == 2, "\(check)")
        let findings = (try check.jsonObject()["stores"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]] ?? []
        let expected = damage.key == "modelHash" ? "metadata.modelInconsistent" : "store.damagedValue"
        #expect(findings.contains { $0["code"] as? String == expected && (expected != "store.damagedValue" || $0["property"] as? String == damage.key) },
                "\(check)")
        // Nothing was written outside the container, nor in it.
        let everything = FileManager.default.enumerator(atPath: w.directory.url.path)?.compactMap { $0 as? String } ?? []
        #expect(!everything.contains { $0.contains("escape") }, "\(everything)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: container).isEmpty)
    }

    @Test("a redirect whose content name or baseline is a path is a damaged redirect, and nothing outside the container is read",
          arguments: [("to", "../../outside"), ("baseline", "../../../outside/b.skbase"), ("modelHash", "../../outside")])
    func redirectPathName(_ damage: (field: String, value: String)) throws {
        let w = try ExitCodeWorkspace()
        defer { w.directory.remove() }
        let container = try w.container("box/container")
        let store = try w.peer("A")
        try w.succeed(["sync", store, "--container", container])
        let modelHash = try DatabaseQueue(path: store).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM sk_metadata WHERE key = 'modelHash'")
        } ?? ""
        var redirect: [String: Any] = [
            "format": 1, "from": "speeches", "to": "speeches-2", "modelHash": modelHash, "modelVersion": "v", "by": "B", "at": 0,
            "baseline": "00000000000000000001-B.skbase", "baselineSHA256": String(repeating: "0", count: 64),
        ]
        redirect[damage.field] = damage.value
        try JSONSerialization.data(withJSONObject: redirect).write(to: URL(fileURLWithPath: "\(container)/speeches/redirect.json"))

        let sync = try StorekeepProcess.run(["sync", store, "--container", container])
        #expect(sync.status == 65, "\(sync)")
        #expect(sync.stderr.contains("\(container)/speeches/redirect.json") || sync.stdout.contains("redirect.json"), "\(sync)")
        #expect(!(sync.stderr + sync.stdout).contains("outside"), "the path was followed: \(sync)")
    }
}
