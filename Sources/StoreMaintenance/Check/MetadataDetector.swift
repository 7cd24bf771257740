import Foundation
import ObjectModel
import SyncStore

/// Checks what the store says about itself (`sk_metadata`, `sk_model`) and decides which model the
/// other detectors use.
enum MetadataDetector {
    /// The newest store format this build knows (`docs/format.md`).
    static let newestFormat = SyncStore.newestFormat
    /// Keys the store's metadata must hold.
    static let requiredKeys = ["storeUUID", "formatVersion", "modelName", "modelVersion", "modelHash", "contentName", "peerID"]

    /// Reads `sk_metadata` and refuses what is not a store, or a store of a newer format.
    ///
    /// - Throws: ``CheckAbort`` for a database without storekeep's tables, or a newer format.
    static func requireStore(_ context: CheckContext) throws {
        let inspection = context.inspection
        guard try inspection.isStore() else {
            // Core Data's own metadata table, for a hint.
            let coreData = try inspection.tableExists("Z_METADATA")
            throw CheckAbort(failure: CheckFailure(
                kind: .badInput,
                message: "\(context.path): is \(coreData ? "an Apple Core Data store" : "a SQLite database without storekeep's tables"), not a storekeep store",
                hint: coreData ? "migrate it first (`storekeep migrate`), then check the new store" : "give the path of a store made by storekeep"))
        }
        context.metadata = try inspection.metadata()
        if let text = context.metadata["formatVersion"], let format = Int(text), format > newestFormat {
            throw CheckAbort(failure: CheckFailure(
                kind: .badInput,
                message: "\(context.path): has store format \(format); this storekeep knows formats up to \(newestFormat)",
                hint: "check it with a newer storekeep"))
        }
    }

    /// Checks the metadata keys, the format version and the model definition, and sets ``CheckContext/model``.
    static func check(_ context: CheckContext) throws {
        let metadata = context.metadata
        for key in requiredKeys where key != "formatVersion" && (metadata[key] ?? "").isEmpty {
            context.add(.metadataMissingKey, property: key) {
                var finding = CheckFinding(code: .metadataMissingKey, message: "\(metadataTable) has no '\(key)'",
                                           hint: "restore the store from a backup; storekeep cannot tell what the value should be")
                finding.property = key
                return finding
            }
        }
        // Names storekeep makes folders and files of: commands that open the store refuse it.
        var named = metadata
        named["modelHash"] = nil  // a wrong hash is told by the model check below (metadata.modelInconsistent)
        for (key, problem) in SyncStore.unusableMetadataNames(named) {
            context.add(.storeDamagedValue, property: "\(metadataTable).value:\(key)") {
                var finding = CheckFinding(
                    code: .storeDamagedValue, message: "\(metadataTable): \(problem), which storekeep would make a folder or file name of",
                    hint: "the store was written around storekeep: commands that open it refuse it; restore the store from a backup")
                finding.table = metadataTable
                finding.column = "value"
                finding.property = key
                return finding
            }
        }
        let formatText = metadata["formatVersion"]
        if formatText.flatMap(Int.init).map({ $0 >= 1 }) != true {
            context.add(.metadataFormatVersion, property: "formatVersion") {
                var finding = CheckFinding(code: .metadataFormatVersion,
                                           message: "\(metadataTable) has \(formatText.map { "the format version '\($0)'" } ?? "no format version"), which is not a format storekeep knows",
                                           hint: "restore the store from a backup")
                finding.property = "formatVersion"
                finding.value = formatText
                return finding
            }
        }
        let stored = try readStoredModel(context)
        guard let stored else { return }
        context.model = stored
        if let expected = context.options.model {
            let expectedHash = ModelVersionHash(expected)
            let storeHash = metadata["modelHash"] ?? ""
            if expectedHash.model == storeHash {
                context.model = expected  // same structure; its validation rules (outside the hash) are the ones to check
            } else {
                let storedHashes = ModelVersionHash(stored).entities
                let differing = Set(storedHashes.keys).union(expectedHash.entities.keys).sorted()
                    .filter { storedHashes[$0] != expectedHash.entities[$0] }
                context.add(.metadataModelMismatch) {
                    var finding = CheckFinding(
                        code: .metadataModelMismatch,
                        message: "the store was made for model version '\(metadata["modelVersion"] ?? "?")' (hash \(storeHash.prefix(12))), "
                            + "not the version '\(expected.versionName)' given (hash \(expectedHash.model.prefix(12)))"
                            + (differing.isEmpty ? "" : "; entities that differ: \(differing.joined(separator: ", "))"),
                        hint: "give the model version the store was made with, or migrate the store to this version (`storekeep migrate`)")
                    finding.value = storeHash
                    finding.expectedHash = expectedHash.model
                    return finding
                }
            }
        }
    }

    /// The model kept in the store, checked against `modelHash`; `nil` (with a finding) when unreadable.
    private static func readStoredModel(_ context: CheckContext) throws -> ManagedModel? {
        func unreadable(_ why: String) -> ManagedModel? {
            context.add(.metadataModelUnreadable) {
                CheckFinding(code: .metadataModelUnreadable, message: "\(modelTable) \(why); records, relationships and external files were not checked",
                             hint: "restore the store from a backup, or migrate it with `storekeep migrate --model` from a copy")
            }
            return nil
        }
        let model: ManagedModel, recordedHash: String?
        switch try context.inspection.storedModel() {
        case .tableMissing: return unreadable("is missing")
        case .rowCount(let count): return unreadable("holds \(count) rows instead of one")
        case .unreadable: return unreadable("holds no readable model definition")
        case .model(let stored, let hash): (model, recordedHash) = (stored, hash)
        }
        if let problem = model.nameProblems().first {
            return unreadable("holds a model definition that is damaged (\(problem))")
        }
        let computed = model.versionHash
        let declared = context.metadata["modelHash"] ?? ""
        let rowHash = recordedHash ?? ""
        if computed != declared || rowHash != declared {
            context.add(.metadataModelInconsistent) {
                var finding = CheckFinding(
                    code: .metadataModelInconsistent,
                    message: "the model definition in \(modelTable) hashes to \(computed.prefix(12)), but the store's modelHash is \(declared.prefix(12))"
                        + (rowHash == declared ? "" : " and \(modelTable).hash is \(rowHash.prefix(12))"),
                    hint: "the store's record of its own model is damaged; restore it from a backup")
                finding.expectedHash = declared
                finding.actualHash = computed
                return finding
            }
        }
        return model
    }

    private static let metadataTable = StoreLayoutDescription.metadataTable
    private static let modelTable = StoreLayoutDescription.modelTable
}
