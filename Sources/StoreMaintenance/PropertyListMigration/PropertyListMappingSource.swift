import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import SyncStore

/// A legacy property list read through a mapping file: one stream per mapped entity.
///
/// ```swift
/// let source = try PropertyListMappingSource(plist: "data.plist", mapping: mapping)
/// let report = try Migrator(source: source, target: "new.store", options: MigrationOptions()).run()
/// ```
public final class PropertyListMappingSource: MigrationSource {
    /// The property list.
    public let document: PropertyListDocument
    /// The mapping.
    public let mapping: MigrationMapping
    /// The model the mapping names.
    public let targetModel: ManagedModel
    /// The source as given.
    public let location: String
    /// What identifies the file's content: its size and the SHA-256 of its first and last 64 KiB.
    public let fingerprint: String
    /// The mapped arrays' element counts, each read once.
    let elementCounts: PropertyListElementCounts

    /// Opens the property list and the mapping's model, and checks the mapping against the model.
    ///
    /// - Parameters:
    ///   - plist: the property list file.
    ///   - mapping: the mapping, read with ``MappingFileReader``.
    ///   - model: a model file to use instead of the one the mapping names.
    /// - Throws: `PropertyListError`, `XcodeModelError`, ``MappingError``.
    public init(plist: String, mapping: MigrationMapping, model: String? = nil) throws {
        document = try PropertyListDocument.open(at: URL(fileURLWithPath: plist))
        self.mapping = mapping
        targetModel = try Self.loadModel(mapping: mapping, overriddenBy: model)
        location = plist
        fingerprint = try SourceFingerprint.of(path: plist)
        elementCounts = PropertyListElementCounts(document: document)
        try MappingValidator.validate(mapping, against: targetModel)
    }

    /// "binary property list with mapping speechtimer1-plist".
    public var kindDescription: String { "\(document.format == .binary ? "binary" : "XML") property list with mapping \(mapping.name)" }
    /// Property lists have no model of their own.
    public var modelNote: String? { nil }
    /// The mapping file's checksum.
    public var checksum: String { mapping.checksum }

    /// One stream per mapped entity, in mapping order.
    public var streams: [any MigrationStream] {
        mapping.entities.map {
            PropertyListEntityStream(rule: $0, document: document, mappingName: mapping.name, model: targetModel, elementCounts: elementCounts)
        }
    }

    /// The model the mapping names (or `model` instead), in the mapping's `modelVersion`. A version
    /// the model does not have, or a model file that is not there, is the mapping's error, naming
    /// its file and line.
    private static func loadModel(mapping: MigrationMapping, overriddenBy model: String?) throws -> ManagedModel {
        do {
            return try ModelLoader.load(path: model ?? mapping.modelPath, version: mapping.modelVersion)
        } catch let error as ModelLookupError {
            throw MappingError(path: mapping.path, line: mapping.modelVersionLine,
                               problem: "modelVersion '\(error.wanted)': \(error.description)", hint: error.hint)
        } catch let error as XcodeModelError where model == nil && error.failureKind == .missingInput {
            throw MappingError(path: mapping.path, line: mapping.modelLine, problem: "model: \(error.description)",
                               hint: error.hint ?? "the model path is relative to the mapping file", failureKind: .missingInput)
        }
    }

    /// Checks that every entity's `from` names something in the file, the values the mapping
    /// requires (`source.check`), and that every key path an entity reads inside its elements is
    /// held by at least one of them (a typo never silently migrates nothing), before anything is
    /// written; when one differs, the whole file is read first, so that a damaged file is refused
    /// for its damage.
    public func validate() throws {
        for rule in mapping.entities where try !document.hasValue(atKeyPath: rule.from) {
            try document.validate()
            throw MappingError(
                path: mapping.path, line: rule.fromLine ?? rule.line,
                problem: "from: '\(rule.from)' (entity \(rule.entity)) names nothing in \(location): the file has no such key path",
                hint: "run `storekeep inspect \(location)` to see its key paths; a key path joins dictionary keys with '.'")
        }
        for (keyPath, expected) in mapping.checks.sorted(by: { $0.key < $1.key }) {
            let found = try document.value(atKeyPath: keyPath)
            guard let found, Self.text(of: found) == expected else {
                // A damaged file is told as such first: the damage, with its line, is what to fix.
                try document.validate()
                throw MaintenanceError(
                    path: location,
                    problem: "the mapping \(mapping.name) expects '\(keyPath)' to be \(expected), but the file has \(found.map(Self.text) ?? "no such key")",
                    hint: "use a mapping written for this file's layout", failureKind: .badInput)
            }
        }
        for rule in mapping.entities { try requireSourceKeys(of: rule) }
    }

    /// Per mapped key path, what the file holds there: an array's elements, or one value.
    public func tallies() throws -> [SourceTally] {
        var seen: Set<String> = []
        return try mapping.entities.compactMap { rule in
            let name = rule.from.isEmpty ? rule.entity : rule.from
            guard seen.insert(name).inserted else { return nil }
            if let count = elementCounts.count(atKeyPath: rule.from) {
                return SourceTally(part: "the array '\(rule.from)'", count: count, streams: [name])
            }
            return SourceTally(part: "the value '\(rule.from)'", count: try document.hasValue(atKeyPath: rule.from) ? 1 : 0, streams: [name])
        }
    }

    /// Reads the whole file once, on a document of its own, to check that every element and value
    /// is well formed: a file damaged anywhere is refused, not migrated up to the damage. Beside
    /// the load, what the streams read of the mapped values is left to them, since they check
    /// everything they pass: an XML file's leaves there, a binary file's elements of the mapped
    /// arrays (``PropertyListDocument/validate(leavingToTheLoad:)``).
    public func wholeSourceCheck(besideTheLoad: Bool) throws -> (@Sendable () throws -> Void)? {
        // Used only by the thread that runs the check.
        nonisolated(unsafe) let copy = try document.reopenedForValidation()
        guard besideTheLoad else { return { try copy.validate() } }
        let mapped = Array(Set(mapping.entities.map(\.from)))
        return { try copy.validate(leavingToTheLoad: mapped) }
    }

    /// A property list that is not well formed is damage, as the whole-source check would refuse
    /// it; a failed read of the file (`ioFailure`) is not: the target stays, to resume.
    public func isDamage(_ error: any Error) -> Bool {
        (error as? PropertyListError)?.failureKind == .badInput
    }

    /// Gives back the document's page cache and decoded-value caches.
    public func finishReading() {
        document.releaseMemory()
    }

    private static func text(of value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        default: return value.typeName
        }
    }
}
