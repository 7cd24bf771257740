import Foundation
import GRDB
import ObjectModel

/// Reads and checks what a store says about itself when it is opened.
enum StoreReader {
    /// Reads the metadata and the model kept in the store.
    static func readHeader(of queue: DatabaseQueue, path: String) throws -> (StoreMetadata, ManagedModel) {
        do {
            return try queue.read { db in
                guard try db.tableExists("sk_metadata") else {
                    if try db.tableExists("Z_METADATA") {
                        throw StoreError(.notAStore, path: path, message: "is an Apple Core Data store, not a storekeep store",
                                         hint: "a Core Data store is a source to migrate from, not a store to open")
                    }
                    throw StoreError(.notAStore, path: path, message: "is a SQLite database without storekeep's tables",
                                     hint: "give the path of a store made by `storekeep init`")
                }
                let pairs = try Row.fetchAll(db, sql: "SELECT key, value FROM sk_metadata")
                var values: [String: String] = [:]
                for row in pairs {
                    guard let key = row.stored("key", as: String.self) else { continue }
                    values[key] = row.stored("value", as: String.self)
                }
                guard let formatText = values["formatVersion"], let format = Int(formatText) else {
                    throw StoreError(.damaged, path: path, message: "has no readable format version in sk_metadata",
                                     hint: "restore the store from a backup")
                }
                guard format <= StoreSchema.formatVersion else {
                    throw StoreError(.unknownFormat, path: path,
                                     message: "has store format \(format); this storekeep reads formats up to \(StoreSchema.formatVersion)",
                                     hint: "use a newer storekeep")
                }
                func required(_ key: String) throws -> String {
                    guard let value = values[key] else {
                        throw StoreError(.damaged, path: path, message: "has no '\(key)' in sk_metadata", hint: "restore the store from a backup")
                    }
                    return value
                }
                let metadata = StoreMetadata(
                    storeUUID: try required("storeUUID"), formatVersion: format,
                    modelName: try required("modelName"), modelVersion: try required("modelVersion"),
                    modelVersionIdentifier: values["modelVersionIdentifier"] ?? "",
                    modelHash: try required("modelHash"), contentName: try required("contentName"),
                    peerID: try required("peerID"), accountToken: values["accountToken"] ?? nil,
                    syncEnabled: values["syncEnabled"] == "1",
                    createdAt: Date(timeIntervalSince1970: Double(values["createdAt"] ?? "") ?? 0),
                    seedConfiguration: values[SyncStore.seedConfigurationKey] ?? nil)
                try Self.requirePathSafe(metadata, path: path)
                guard let definition = try String.fetchOne(db, sql: "SELECT definition FROM sk_model LIMIT 1"),
                      let model = try? JSONDecoder().decode(ManagedModel.self, from: Data(definition.utf8)) else {
                    throw StoreError(.damaged, path: path, message: "has no readable model definition in sk_model",
                                     hint: "restore the store from a backup")
                }
                if let problem = model.nameProblems().first {
                    throw StoreError(.damaged, path: path, message: "the model definition in sk_model is damaged: \(problem)",
                                     hint: "restore the store from a backup")
                }
                return (metadata, model)
            }
        } catch {
            throw StoreError.wrapping(error, path: path, action: "read the store's metadata")
        }
    }

    /// Throws ``StoreError`` `damaged` when a name the store keeps about itself could not be the
    /// folder or file name storekeep makes of it (``SyncStore/unusableMetadataNames(_:)``): a store
    /// written around storekeep could otherwise make `sync` write outside its container.
    static func requirePathSafe(_ metadata: StoreMetadata, path: String) throws {
        let wrong = SyncStore.unusableMetadataNames([
            "contentName": metadata.contentName, "peerID": metadata.peerID, "modelHash": metadata.modelHash,
            SyncStore.seedConfigurationKey: metadata.seedConfiguration,
        ].compactMapValues { $0 })
        guard wrong.isEmpty else {
            throw StoreError(.damaged, path: path, message: "sk_metadata: \(wrong.map(\.problem).joined(separator: "; "))",
                             hint: "the store was written around storekeep; restore it from a backup")
        }
    }

    /// Throws ``StoreError`` `modelMismatch` unless `expected` is the model the store was made for.
    static func requireModel(_ expected: ManagedModel, matches stored: ManagedModel, metadata: StoreMetadata, path: String) throws {
        let expectedHash = ModelVersionHash(expected)
        guard expectedHash.model != metadata.modelHash else { return }
        let storedHash = ModelVersionHash(stored)
        let names = Set(expectedHash.entities.keys).union(storedHash.entities.keys).sorted()
        let differing = names.compactMap { name -> String? in
            switch (storedHash.entities[name], expectedHash.entities[name]) {
            case (nil, _): return "\(name) (only in the model given)"
            case (_, nil): return "\(name) (only in the store's model)"
            case (let a?, let b?) where a != b: return name
            default: return nil
            }
        }
        let entities = differing.isEmpty ? "" : "; entities that differ: \(differing.joined(separator: ", "))"
        throw StoreError(
            .modelMismatch, path: path,
            message: "was made for model \(metadata.modelName) version '\(metadata.modelVersion)' (hash \(metadata.modelHash.prefix(12))), "
                + "but the model given is version '\(expected.versionName)' (hash \(expectedHash.model.prefix(12)))\(entities)",
            hint: "give the model version the store was made with (see `storekeep info`)")
    }
}
