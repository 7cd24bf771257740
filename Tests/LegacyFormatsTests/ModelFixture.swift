import Foundation

/// A temporary folder holding hand-written model files; removed when the test ends.
final class ModelFixture {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("storekeep-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes `text` as `<relativePath>`, creating folders; returns its URL.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// A `contents` document whose `<model>` holds `body`.
    static func contents(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
        </model>

        """
    }

    /// A `.xccurrentversion` plist naming `version`.
    static func currentVersion(_ version: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(version)</string>
        </dict>
        </plist>

        """
    }

    static let simpleEntity = """
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
    """
}
