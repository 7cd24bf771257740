import Foundation
import ObjectModel

extension CoreDataStoreReader {
    /// The model chosen for a store, how it was obtained, and its mapping onto the tables.
    struct ResolvedModel {
        var model: ManagedModel
        var source: ModelSource
        var sentence: String
        var notes: [String]
        var mapping: StoreMapping
        /// The schema with entities renamed as the model renamed them.
        var schema: CoreDataSchema
    }

    /// The given model (checked), else the model cache, else an inferred model.
    static func resolveModel(
        given: ManagedModel?, schema: CoreDataSchema, path: String
    ) throws(CoreDataStoreError) -> ResolvedModel {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        if let given {
            do {
                let renamed = schema.renamed(for: given)
                let mapping = try StoreMapping.build(model: given, schema: renamed)
                return ResolvedModel(
                    model: given, source: .given, sentence: ModelSource.given.sentence,
                    notes: derivedNotes(mapping), mapping: mapping, schema: renamed)
            } catch let mismatch {
                throw CoreDataStoreError(
                    path: path, problem: "the given model does not match the store: \(mismatch.summary)",
                    hint: "give the model version the store was made with, or no model to use the store's own")
            }
        }
        var reason = "the store has no Z_MODELCACHE"
        if let cache = schema.modelCache {
            do {
                let decoded = try ModelCacheDecoder.decode(cache, name: name)
                let renamed = schema.renamed(for: decoded)
                let mapping = try StoreMapping.build(model: decoded, schema: renamed)
                return ResolvedModel(
                    model: decoded, source: .modelCache, sentence: ModelSource.modelCache.sentence,
                    notes: derivedNotes(mapping), mapping: mapping, schema: renamed)
            } catch let failure as ModelCacheDecoder.Failure {
                reason = "its Z_MODELCACHE could not be decoded (\(failure.reason))"
            } catch let mismatch as StoreMapping.Mismatch {
                reason = "its Z_MODELCACHE does not match the tables (\(mismatch.summary))"
            } catch {
                reason = "its Z_MODELCACHE could not be used (\(error))"
            }
        }
        let (inferred, notes) = ModelInference.infer(schema: schema, name: name)
        do {
            let mapping = try StoreMapping.build(model: inferred, schema: schema)
            return ResolvedModel(
                model: inferred, source: .inferred, sentence: "\(ModelSource.inferred.sentence) (\(reason))",
                notes: notes, mapping: mapping, schema: schema)
        } catch {
            throw CoreDataStoreError(
                path: path, problem: "its tables do not follow Core Data's layout: \(error.summary)",
                hint: "give the model the store was made with (an .xcdatamodeld version)")
        }
    }

    private static func derivedNotes(_ mapping: StoreMapping) -> [String] {
        guard !mapping.derivedOnly.isEmpty else { return [] }
        return ["unordered to-many relationships with a to-one inverse are read from the to-one side only: "
            + mapping.derivedOnly.sorted().joined(separator: ", ")]
    }
}
