import ObjectModel
import SyncStore

/// Seed stores (article 4) from the user's store's side: each seed configuration's store must be
/// beside it and be that configuration's, and every seed reference of a user record must name one
/// of its records (`docs/checks.md`).
enum SeedStoreDetector {
    /// Checks the seed stores of a user's store, read on a connection of their own to the store
    /// (opened as the check's own: immutable or not): the other detectors' connection never sees
    /// another file's tables.
    static func check(_ context: CheckContext, inspector: StoreInspector) throws {
        guard let model = context.model, context.seedConfiguration == nil, !model.seedConfigurations.isEmpty else { return }
        let limit = context.options.findingLimit ?? Int.max
        try inspector.forEachSeedStore(of: model.seedConfigurations.map(\.name), model: model, limit: limit) { reading in
            switch reading {
            case .missing(let configuration, let file):
                add(.seedStoreMissing, context, file: file,
                    "there is no seed store \(file): the records of seed configuration \(configuration) are not there, and references to them cannot be checked",
                    hint: "build it with `storekeep seed-store build \(context.path) --from SEEDSET` (or --from-sqlite FILE)")
            case .unreadable(_, let file, let message):
                add(.seedStoreMismatch, context, file: file, "the seed store \(file) cannot be read: \(message)",
                    hint: "build it again with `storekeep seed-store build \(context.path)`")
            case .mismatched(_, let file, let problem):
                add(.seedStoreMismatch, context, file: file, "the seed store \(file) \(problem)",
                    hint: "build it again for this store's model with `storekeep seed-store build \(context.path)`")
            case .checked(let configuration, let file, let found, let total, let seedVersion):
                dangling(found, total: total, configuration: configuration, version: seedVersion.map { " (version \($0))" } ?? "", file: file, context)
            }
        }
    }

    private static func dangling(_ found: [DanglingSeedReference], total: Int, configuration: String, version: String, file: String,
                                 _ context: CheckContext) {
        for reference in found {
            context.add(.seedStoreDanglingReference, entity: reference.entity, property: reference.attribute) {
                var finding = CheckFinding(
                    code: .seedStoreDanglingReference, entity: reference.entity, globalIDs: [reference.globalID],
                    message: "\(reference.entity) \(reference.globalID).\(reference.attribute) points at \(reference.targetEntity) \(reference.target), which the seed store of \(configuration)\(version) does not hold",
                    hint: "restore or build the seed store version that holds it, or point the record at another seed record in the app")
                finding.property = reference.attribute
                finding.target = reference.target
                finding.targetEntity = reference.targetEntity
                finding.file = file
                return finding
            }
        }
        // The ones not listed still count (as omitted) under the finding limit.
        for reference in found.suffix(1) where total > found.count {
            for _ in found.count..<total {
                context.add(.seedStoreDanglingReference, entity: reference.entity, property: reference.attribute) {
                    CheckFinding(code: .seedStoreDanglingReference, entity: reference.entity, message: "", hint: "")
                }
            }
        }
    }

    private static func add(_ code: CheckCode, _ context: CheckContext, file: String, _ message: String, hint: String) {
        context.add(code) {
            var finding = CheckFinding(code: code, message: message, hint: hint)
            finding.file = file
            return finding
        }
    }
}
