import Foundation
import ObjectModel

/// Reads Xcode data models (`.xcdatamodeld` bundles, `.xcdatamodel` folders, `contents` files)
/// into ``ObjectModel/ModelBundle`` values.
///
/// The current version is the one `.xccurrentversion` names. Without that file (Xcode leaves it
/// out of single-version bundles) the only version is current; when several versions exist and no
/// file names one, the newest by ``ObjectModel/ModelBundle/versionOrder(_:_:)`` is current.
///
/// ```swift
/// let bundle = try XcodeModelReader().readModel(at: URL(fileURLWithPath: "Migrations/SpeechTimer/SpeechTimer.xcdatamodeld"))
/// bundle.currentVersionName        // "SpeechTimer 2"
/// bundle.current.versionHash       // 64 hex digits
/// ```
public struct XcodeModelReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Reads every version of the model at `url`.
    ///
    /// - Parameter url: an `.xcdatamodeld` bundle, an `.xcdatamodel` folder (read as a bundle with
    ///   one version), or a version's `contents` file.
    /// - Throws: ``XcodeModelError``: `.missingInput` when a path does not exist or cannot be read;
    ///   `.badInput` for malformed XML, an unknown root element, a broken `.xccurrentversion`, a
    ///   current version that does not exist, structural problems or bad storekeep facts.
    public func readModel(at url: URL) throws(XcodeModelError) -> ModelBundle {
        let url = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw XcodeModelError(
                path: url.path, problem: "no such file or folder",
                hint: "give the path of an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file",
                failureKind: .missingInput)
        }
        guard isDirectory.boolValue else {
            let folder = url.deletingLastPathComponent()
            let versionName = Self.baseName(of: folder)
            let model = try readVersion(contents: url, modelName: Self.modelName(ofVersionFolder: folder), versionName: versionName)
            return ModelBundle(name: model.name, versions: [model], currentVersionName: versionName)
        }
        switch url.pathExtension {
        case "xcdatamodeld":
            return try readBundle(at: url)
        case "xcdatamodel":
            let versionName = Self.baseName(of: url)
            let model = try readVersion(
                contents: url.appendingPathComponent("contents"), modelName: Self.modelName(ofVersionFolder: url),
                versionName: versionName)
            return ModelBundle(name: model.name, versions: [model], currentVersionName: versionName)
        default:
            throw XcodeModelError(
                path: url.path, problem: "not an Xcode data model (expected an .xcdatamodeld or .xcdatamodel folder)",
                hint: "give the path of an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file")
        }
    }

    private func readBundle(at url: URL) throws(XcodeModelError) -> ModelBundle {
        let modelName = Self.baseName(of: url)
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw XcodeModelError(
                path: url.path, problem: "cannot list the bundle", hint: "check the folder's permissions",
                failureKind: .missingInput)
        }
        let versionFolders = entries.filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard !versionFolders.isEmpty else {
            throw XcodeModelError(
                path: url.path, problem: "the bundle holds no .xcdatamodel version",
                hint: "add a model version in Xcode, or check that this is the right bundle")
        }
        var versions: [ManagedModel] = []
        for folder in versionFolders {
            let versionURL = url.appendingPathComponent(folder)
            versions.append(try readVersion(
                contents: versionURL.appendingPathComponent("contents"), modelName: modelName,
                versionName: Self.baseName(of: versionURL)))
        }
        let bundle = ModelBundle(name: modelName, versions: versions, currentVersionName: "")
        let currentFile = url.appendingPathComponent(".xccurrentversion")
        let currentName: String
        if FileManager.default.fileExists(atPath: currentFile.path) {
            currentName = try XcodeCurrentVersionReader().currentVersionName(at: currentFile)
            guard bundle.versions.contains(where: { $0.versionName == currentName }) else {
                throw XcodeModelError(
                    path: currentFile.path,
                    problem: "the current version '\(currentName)' is not in the bundle; it has: \(bundle.versions.map(\.versionName).joined(separator: ", "))",
                    hint: "choose an existing current version in Xcode (File inspector, Model Version)")
            }
        } else {
            currentName = bundle.versions[bundle.versions.count - 1].versionName
        }
        return ModelBundle(name: modelName, versions: bundle.versions, currentVersionName: currentName)
    }

    /// Reads, checks and completes one version from its `contents` file.
    func readVersion(contents url: URL, modelName: String, versionName: String) throws(XcodeModelError) -> ManagedModel {
        let data = try Self.readContents(at: url)
        let parsed = try ModelContentsParser.parse(data, path: url.path)
        var model = ManagedModel(
            name: modelName, versionName: versionName, versionIdentifier: parsed.versionIdentifier,
            entities: parsed.entities, configurations: parsed.configurations, composites: parsed.composites)
        let problems = model.problems()
        if let first = problems.first {
            let sentences = problems.map { problem in parsed.line(of: problem).map { "\(problem) (line \($0))" } ?? problem.description }
            throw XcodeModelError(
                path: url.path, line: parsed.line(of: first), problem: "the model is inconsistent: \(sentences.joined(separator: "; "))",
                hint: "fix the model in Xcode's model editor (it reports the same problems when you build)")
        }
        for index in model.entities.indices {
            let entity = model.entities[index]
            let attributeNames = Set(model.attributes(of: entity.name).map(\.name))
            do {
                model.entities[index].facts = try StorekeepFacts(
                    userInfo: entity.userInfo, entityName: entity.name, attributeNames: attributeNames)
            } catch {
                throw XcodeModelError(
                    path: url.path, line: parsed.entityLines[entity.name], problem: error.description,
                    hint: "edit the entity's User Info in Xcode's model editor; see docs/models.md for the storekeep keys")
            }
        }
        let seedProblems = model.seedConfigurationProblems()
        if !seedProblems.isEmpty {
            throw XcodeModelError(
                path: url.path, problem: "the seed configuration is unusable: \(seedProblems.joined(separator: "; "))",
                hint: "fix the configuration or the User Info of its entities; see docs/models.md, \"Seed configurations\"")
        }
        return model
    }

    private static func readContents(at url: URL) throws(XcodeModelError) -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        if let size, size > ModelContentsParser.maximumFileSize {
            throw XcodeModelError(
                path: url.path,
                problem: "the model file is \(size) bytes; model files over \(ModelContentsParser.maximumFileSize) bytes are refused",
                hint: "real data model files are a few kilobytes; check that this is the right file")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw XcodeModelError(
                path: url.path, problem: "cannot read the model file",
                hint: "every .xcdatamodel folder must hold a readable contents file", failureKind: .missingInput)
        }
    }

    /// A file or folder name without its extension.
    static func baseName(of url: URL) -> String {
        url.deletingPathExtension().lastPathComponent
    }

    /// The model name of a lone version folder: its bundle's name when it sits in one, else its own.
    private static func modelName(ofVersionFolder folder: URL) -> String {
        let parent = folder.deletingLastPathComponent()
        return parent.pathExtension == "xcdatamodeld" ? baseName(of: parent) : baseName(of: folder)
    }
}
