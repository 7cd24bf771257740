import Foundation
import Testing

/// Where the shared real-world corpus and the repository's own files are, seen from this file.
enum Corpus {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `<root>/../shared/corpus`.
    static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The corpus's model folder.
    static let models = root.appendingPathComponent("models")

    /// Whether the corpus is on this machine (tests that need it are skipped otherwise).
    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: models.path)
    }

    /// The message shown when corpus tests are skipped.
    static let absentMessage: Comment = "the shared corpus (../shared/corpus) is absent; real-model tests skipped"

    /// A model bundle in the corpus, e.g. `model("p0deje-Maccy", "Storage")`.
    static func model(_ folder: String, _ bundle: String) -> URL {
        models.appendingPathComponent(folder).appendingPathComponent(bundle + ".xcdatamodeld")
    }

    /// Every `.xcdatamodeld` bundle under the corpus, sorted by path.
    static func allModelBundles() -> [URL] {
        guard let walker = FileManager.default.enumerator(at: models, includingPropertiesForKeys: nil) else { return [] }
        var bundles: [URL] = []
        for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
            bundles.append(url)
            walker.skipDescendants()
        }
        return bundles.sorted { $0.path < $1.path }
    }
}
