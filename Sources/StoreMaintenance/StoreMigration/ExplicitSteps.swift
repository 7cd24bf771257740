import Foundation
import LegacyFormats
import ObjectModel

/// The step files and Xcode mapping models found beside a model bundle, by the two versions each
/// goes between: the steps a migration may take other than inferred ones.
///
/// Step files are `<from> to <to>.step.yaml` in the folder holding the bundle. Mapping models are
/// the `.xcmappingmodel` folders in that folder and its sub-folders (three levels down) whose two
/// versions are in the bundle; one made for another bundle is left out. A step file and a mapping
/// model for the same two versions go together: the step file overrides parts of the mapping.
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

    /// The folder step files are looked for in (and mapping models under).
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

    /// Finds the step files and mapping models beside `bundle`, at `bundlePath`.
    ///
    /// - Throws: `XcodeMappingError` for a mapping model that cannot be read; ``MaintenanceError``
    ///   when two mapping models go between the same two versions.
    static func find(bundle: ModelBundle, bundlePath: String) throws -> ExplicitSteps {
        var folder = URL(fileURLWithPath: bundlePath).standardizedFileURL.deletingLastPathComponent()
        if folder.pathExtension == "xcdatamodeld" { folder = folder.deletingLastPathComponent() }
        var found = ExplicitSteps(folder: folder)
        let names = Set(bundle.versions.map(\.versionName))
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for entry in entries.sorted() where entry.hasSuffix(".step.yaml") {
            let base = String(entry.dropLast(".step.yaml".count))
            var start = base.startIndex
            while let range = base.range(of: " to ", range: start..<base.endIndex) {
                let from = String(base[..<range.lowerBound])
                let to = String(base[range.upperBound...])
                if names.contains(from) && names.contains(to) {
                    found.edges[from, default: [:]][to, default: Edge(from: from, to: to)].stepFile = folder.appendingPathComponent(entry).path
                    break
                }
                start = range.upperBound
            }
        }
        for url in XcodeMappingReader.mappingModels(in: folder) {
            let mapping = try XcodeMappingReader().read(at: url)
            guard mapping.modelName == nil || mapping.modelName == bundle.name,
                  names.contains(mapping.sourceVersion), names.contains(mapping.destinationVersion) else { continue }
            var edge = found.edges[mapping.sourceVersion]?[mapping.destinationVersion] ?? Edge(from: mapping.sourceVersion, to: mapping.destinationVersion)
            if let other = edge.mapping {
                throw MaintenanceError(
                    path: mapping.path,
                    problem: "two mapping models go from '\(mapping.sourceVersion)' to '\(mapping.destinationVersion)': \(other.path) and this one",
                    hint: "remove the one the app no longer ships", failureKind: .badInput)
            }
            edge.mapping = mapping
            found.edges[mapping.sourceVersion, default: [:]][mapping.destinationVersion] = edge
        }
        return found
    }
}
