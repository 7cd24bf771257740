import Foundation
import LegacyFormats
import ObjectModel

/// The step files and Xcode mapping models found beside a model bundle, by the two versions each
/// goes between: the steps a migration may take other than inferred ones.
///
/// Step files are `<from> to <to>.step.yaml` in the folder holding the bundle, or in the folder
/// given instead (`--steps`: the operator's own, when the app's folder is not to be written). Mapping
/// models are the `.xcmappingmodel` folders in the bundle's folder and its sub-folders (three levels
/// down) whose two versions are in the bundle; one made for another bundle is left out. A step file
/// and a mapping model for the same two versions go together: the step file overrides parts of the mapping.
struct ExplicitSteps {
    /// One pair of versions with a step file, a mapping model, or both.
    struct Edge {
        var from: String
        var to: String
        /// The step file's path, when one exists.
        var stepFile: String?
        /// The mapping model, when one exists.
        var mapping: XcodeMappingModel?
    }

    /// The folder step files are looked for in.
    let folder: URL
    /// Edges by "from" version, then "to" version.
    private(set) var edges: [String: [String: Edge]] = [:]

    /// The edge from `from` to `to`, if any.
    func edge(from: String, to: String) -> Edge? { edges[from]?[to] }

    /// The edges leaving `version`, in the bundle's version order of their targets.
    func edges(from version: String, order: [String]) -> [Edge] {
        guard let out = edges[version] else { return [] }
        return order.compactMap { out[$0] }
    }

    /// Where a step file between `from` and `to` is, or would be.
    func stepFilePath(from: String, to: String) -> String {
        folder.appendingPathComponent(StepFile.fileName(from: from, to: to)).path
    }

    /// Finds the step files and mapping models beside `bundle`, at `bundlePath`; the step files in
    /// `stepsFolder` instead when it is given.
    ///
    /// - Throws: `XcodeMappingError` for a mapping model that cannot be read; ``MaintenanceError``
    ///   when two mapping models go between the same two versions, or `stepsFolder` is no folder.
    static func find(bundle: ModelBundle, bundlePath: String, stepsFolder: String? = nil) throws -> ExplicitSteps {
        var folder = URL(fileURLWithPath: bundlePath).standardizedFileURL.deletingLastPathComponent()
        if folder.pathExtension == "xcdatamodeld" { folder = folder.deletingLastPathComponent() }
        var found = ExplicitSteps(folder: try stepsFolder.map(Self.checkedFolder) ?? folder)
        found.addStepFiles(versions: Set(bundle.versions.map(\.versionName)))
        try found.addMappingModels(in: folder, bundle: bundle)
        return found
    }

    /// `path` as a folder URL, or a ``MaintenanceError`` (`missingInput`) when it is none.
    static func checkedFolder(_ path: String) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw MaintenanceError(path: path, problem: "is not a folder of step files",
                                   hint: "give --steps the folder holding the step files (<from> to <to>.step.yaml, docs/steps.md)",
                                   failureKind: .missingInput)
        }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// Adds the step files of ``folder`` between two of `versions`.
    private mutating func addStepFiles(versions names: Set<String>) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for entry in entries.sorted() where entry.hasSuffix(".step.yaml") {
            let base = String(entry.dropLast(".step.yaml".count))
            var start = base.startIndex
            while let range = base.range(of: " to ", range: start..<base.endIndex) {
                let from = String(base[..<range.lowerBound])
                let to = String(base[range.upperBound...])
                if names.contains(from) && names.contains(to) {
                    edges[from, default: [:]][to, default: Edge(from: from, to: to)].stepFile = folder.appendingPathComponent(entry).path
                    break
                }
                start = range.upperBound
            }
        }
    }

    /// Adds the mapping models under `folder` between two versions of `bundle`.
    private mutating func addMappingModels(in folder: URL, bundle: ModelBundle) throws {
        let names = Set(bundle.versions.map(\.versionName))
        for url in XcodeMappingReader.mappingModels(in: folder) {
            let mapping = try XcodeMappingReader().read(at: url)
            guard mapping.modelName == nil || mapping.modelName == bundle.name,
                  names.contains(mapping.sourceVersion), names.contains(mapping.destinationVersion) else { continue }
            var edge = edges[mapping.sourceVersion]?[mapping.destinationVersion] ?? Edge(from: mapping.sourceVersion, to: mapping.destinationVersion)
            if let other = edge.mapping {
                throw MaintenanceError(
                    path: mapping.path,
                    problem: "two mapping models go from '\(mapping.sourceVersion)' to '\(mapping.destinationVersion)': \(other.path) and this one",
                    hint: "remove the one the app no longer ships", failureKind: .badInput)
            }
            edge.mapping = mapping
            edges[mapping.sourceVersion, default: [:]][mapping.destinationVersion] = edge
        }
    }
}
