import Foundation
import ObjectModel
import XcodeModel

/// Finds which version of a model bundle a Core Data store was made with, the way Core Data does
/// first: by its entity version hashes; then by the model the store keeps in `Z_MODELCACHE`; then by
/// its tables and columns. Never a guess: when several versions fit equally, it says so and asks for
/// the version by name; when none fits, it names the closest one and what differs.
struct CoreDataVersionFinder {
    let schema: CoreDataSchema
    /// `NSStoreModelVersionHashes` (empty when the metadata has none).
    let storeHashes: [String: [UInt8]]
    let bundle: ModelBundle
    let path: String

    /// The version: `override` when given, else found; `preferred` (the migration's target) is
    /// taken among versions whose hashes fit equally well (Core Data opens a store with its current
    /// model whenever the hashes allow it). Versions that fit the model cache equally are never
    /// chosen between: Core Data does not read the cache to find a version, so that would be a guess.
    func find(override: String?, preferred: String?) throws(CoreDataStoreError) -> CoreDataVersionMatch {
        if let override {
            let version: ManagedModel
            do {
                version = try bundle.version(named: override)
            } catch {
                throw CoreDataStoreError(path: path, problem: error.description, hint: error.hint, failureKind: .usage)
            }
            let byHash = hashMatches()
            var sentence = "version '\(version.versionName)' given with --model-version"
            if !storeHashes.isEmpty && !byHash.contains(where: { $0.versionName == version.versionName }) {
                sentence += byHash.isEmpty ? " (the store's version hashes match no version of the bundle)"
                    : " (the store's version hashes match \(byHash.map { "'\($0.versionName)'" }.joined(separator: ", ")))"
            }
            return CoreDataVersionMatch(version: version, method: .override, sentence: sentence)
        }
        var why: [String] = []
        if storeHashes.isEmpty {
            why.append("the store's metadata has no version hashes")
        } else {
            let matches = hashMatches()
            if let match = try pick(matches, preferred: preferred, method: .versionHashes,
                                    how: "Core Data's entity version hashes (\(storeHashes.count) of \(storeHashes.count) entities)") {
                return match
            }
            let unproven = Set(bundle.versions.flatMap { CoreDataVersionHash.unprovenEntities(of: $0) }).sorted()
            why.append("its version hashes match no version" + (unproven.isEmpty ? ""
                : " (the hashes of \(unproven.joined(separator: ", ")), with derived or composite attributes, are not proven to be Core Data's)"))
        }
        if let cached = decodedCache() {
            let storeSignature = CoreDataVersionHash.entityHashes(of: cached, style: .structural)
            let matches = bundle.versions.filter { CoreDataVersionHash.entityHashes(of: $0, style: .structural) == storeSignature }
            if let match = try pick(matches, preferred: preferred, method: .modelCache,
                                    how: "the model in its Z_MODELCACHE (\(why.joined(separator: "; ")))") {
                return match
            }
            why.append("the model in its Z_MODELCACHE matches no version")
        } else {
            why.append("it has no Z_MODELCACHE that can be decoded")
        }
        let fits = bundle.versions.filter { fitsTables($0) }
        if fits.count == 1 {
            return CoreDataVersionMatch(
                version: fits[0], method: .tables,
                sentence: "version '\(fits[0].versionName)' found by its tables and columns, the only version that fits them (\(why.joined(separator: "; ")))")
        }
        if fits.count > 1 { throw ambiguity(fits, method: "tables and columns") }
        throw noVersion(why: why)
    }

    /// The versions whose computed entity hashes equal the store's, entity for entity.
    private func hashMatches() -> [ManagedModel] {
        guard !storeHashes.isEmpty else { return [] }
        return bundle.versions.filter { CoreDataVersionHash.entityHashes(of: $0) == storeHashes }
    }

    private func pick(_ matches: [ManagedModel], preferred: String?, method: CoreDataVersionMatch.Method,
                      how: String) throws(CoreDataStoreError) -> CoreDataVersionMatch? {
        if matches.count == 1 {
            return CoreDataVersionMatch(version: matches[0], method: method, sentence: "version '\(matches[0].versionName)' found by \(how)")
        }
        guard matches.count > 1 else { return nil }
        // Equal hashes are what Core Data itself compares: it opens the store with its current model
        // when the hashes allow. A model cache is storekeep's own evidence: a tie there is never broken.
        if method == .versionHashes, let preferred, let target = matches.first(where: { $0.versionName == preferred }) {
            let others = matches.filter { $0.versionName != preferred }.map { "'\($0.versionName)'" }.joined(separator: ", ")
            return CoreDataVersionMatch(
                version: target, method: method,
                sentence: "version '\(target.versionName)' found by \(how); \(others) fit equally, and the target is taken as Core Data would")
        }
        throw ambiguity(matches, method: method == .versionHashes ? "version hashes" : "Z_MODELCACHE")
    }

    private func decodedCache() -> ManagedModel? {
        guard let cache = schema.modelCache else { return nil }
        return try? ModelCacheDecoder.decode(cache, name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
    }

    private func fitsTables(_ version: ManagedModel) -> Bool {
        (try? StoreMapping.build(model: version, schema: schema.renamed(for: version))) != nil
    }

    private func ambiguity(_ versions: [ManagedModel], method: String) -> CoreDataStoreError {
        let names = versions.map { "'\($0.versionName)'" }.joined(separator: ", ")
        return CoreDataStoreError(
            path: path, problem: "several versions of \(bundle.name) fit the store by its \(method): \(names); storekeep does not guess",
            hint: "name the store's version with --model-version (one of \(names))")
    }

    /// "entity Book is …", "entities A, B and C are …", the first six of many and how many more.
    private static func entities(_ names: [String], are place: String) -> String? {
        guard let first = names.first else { return nil }
        guard names.count > 1 else { return "entity \(first) is \(place)" }
        let shown = names.count > 6 ? names.prefix(6).joined(separator: ", ") + " and \(names.count - 6) more"
            : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        return "entities \(shown) are \(place)"
    }

    /// No version fits: the closest one (most entity hashes equal, else fewest mismatches with the
    /// tables) and what differs.
    private func noVersion(why: [String]) -> CoreDataStoreError {
        let scored = bundle.versions.map { version -> (ManagedModel, Int, Int) in
            let hashes = CoreDataVersionHash.entityHashes(of: version)
            let equal = storeHashes.filter { hashes[$0.key] == $0.value }.count
            let mismatches: Int
            do throws(StoreMapping.Mismatch) {
                _ = try StoreMapping.build(model: version, schema: schema.renamed(for: version))
                mismatches = 0
            } catch {
                mismatches = error.problems.count
            }
            return (version, equal, mismatches)
        }
        guard let closest = scored.max(by: { ($0.1, -$0.2) < ($1.1, -$1.2) })?.0 else {
            return CoreDataStoreError(path: path, problem: "the bundle \(bundle.name) has no versions", hint: "give the app's .xcdatamodeld bundle")
        }
        var differences: [String] = []
        // Entities the hashes already show in one of the two only: the model cache's or the tables'
        // differences would say it again in their own words.
        var entitiesNamed: [(entity: String, inStore: Bool)] = []
        if !storeHashes.isEmpty {
            let hashes = CoreDataVersionHash.entityHashes(of: closest)
            let equal = storeHashes.filter { hashes[$0.key] == $0.value }.count
            differences.append("\(equal) of \(storeHashes.count) entity hashes equal")
            let onlyInStore = storeHashes.keys.sorted().filter { hashes[$0] == nil }
            let onlyInVersion = hashes.keys.sorted().filter { storeHashes[$0] == nil }
            if let words = Self.entities(onlyInStore, are: "in the store, not in the version") { differences.append(words) }
            if let words = Self.entities(onlyInVersion, are: "in the version, not in the store") { differences.append(words) }
            entitiesNamed = onlyInStore.map { ($0, true) } + onlyInVersion.map { ($0, false) }
            let differing = storeHashes.keys.sorted().filter { hashes[$0] != nil && hashes[$0] != storeHashes[$0] }
            if !differing.isEmpty { differences.append("hash differs for \(differing.joined(separator: ", "))") }
        }
        if let cached = decodedCache() {
            var named = cached
            named.versionName = "store"
            let said = Set(entitiesNamed.map { $0.inStore ? CoreDataModelDifferences.entityOnly($0.entity, in: named, notIn: closest)
                                                         : CoreDataModelDifferences.entityOnly($0.entity, in: closest, notIn: named) })
            differences += CoreDataModelDifferences.between(named, and: closest, limit: 6 + said.count).filter { !said.contains($0) }.prefix(6)
        } else {
            do throws(StoreMapping.Mismatch) {
                _ = try StoreMapping.build(model: closest, schema: schema.renamed(for: closest))
            } catch {
                let said = Set(entitiesNamed.map { StoreMapping.entityOnly($0.entity, inStore: $0.inStore) })
                differences += error.problems.filter { !said.contains($0) }.prefix(4)
            }
        }
        return CoreDataStoreError(
            path: path,
            problem: "no version of \(bundle.name) fits the store (\(why.joined(separator: "; ")); its tables fit no version); "
                + "closest: '\(closest.versionName)': \(differences.joined(separator: "; "))",
            hint: "give the model bundle of the app release that wrote this store, or name its version with --model-version")
    }
}
