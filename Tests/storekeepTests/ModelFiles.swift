import Foundation

/// Model files the end-to-end tests use: the bundled example, the shared corpus, and small ones written on the spot.
enum ModelFiles {
    /// The bundled Speech Timer model.
    static var speechTimer: String {
        StorekeepProcess.packageRoot.appendingPathComponent("Migrations/SpeechTimer/SpeechTimer.xcdatamodeld").path
    }

    /// `<root>/../shared/corpus/models`.
    static var corpusModels: URL {
        StorekeepProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
    }

    /// Whether the shared corpus is on this machine.
    static var corpusIsPresent: Bool { FileManager.default.fileExists(atPath: corpusModels.path) }

    /// `<root>/../shared/corpus/coredata-stores`: Core Data SQLite stores written by Apple's samples.
    static var corpusCoreDataStores: URL {
        StorekeepProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/coredata-stores")
    }

    /// Whether the Core Data stores of the corpus are on this machine.
    static var coreDataCorpusIsPresent: Bool { FileManager.default.fileExists(atPath: corpusCoreDataStores.path) }

    /// Every `*.sqlite` under `coredata-stores/` and under `models/*/stores/`, sorted by path
    /// (empty when the corpus is absent).
    static func coreDataCorpusStores() -> [String] {
        var stores: [String] = []
        if let walker = FileManager.default.enumerator(at: corpusCoreDataStores, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "sqlite" { stores.append(url.path) }
        }
        let projects = (try? FileManager.default.contentsOfDirectory(atPath: corpusModels.path)) ?? []
        for project in projects {
            let folder = corpusModels.appendingPathComponent(project).appendingPathComponent("stores")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".sqlite") {
                stores.append(folder.appendingPathComponent(name).path)
            }
        }
        return stores.sorted()
    }

    /// Every `.xcdatamodeld` bundle of the corpus, sorted by path.
    static func corpusBundles() -> [URL] {
        guard let walker = FileManager.default.enumerator(at: corpusModels, includingPropertiesForKeys: nil) else { return [] }
        var bundles: [URL] = []
        for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
            bundles.append(url)
            walker.skipDescendants()
        }
        return bundles.sorted { $0.path < $1.path }
    }

    /// Writes a one-version model `Library.xcdatamodel` with inheritance (abstract `Item`, `Book`
    /// and `Film` under it) into `directory` and returns its path.
    static func writeLibraryModel(in directory: TemporaryDirectory) throws -> String {
        let folder = directory.url.appendingPathComponent("Library.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" isAbstract="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
                </entity>
                <entity name="Book" parentEntity="Item">
                    <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                </entity>
                <entity name="Film" parentEntity="Item">
                    <attribute name="minutes" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                </entity>
                <entity name="Shelf">
                    <attribute name="label" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder.path
    }
}
