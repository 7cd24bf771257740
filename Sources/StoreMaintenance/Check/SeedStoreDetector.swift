import Foundation
import GRDB
import ObjectModel
import SyncStore

/// Seed stores (article 4) from the user's store's side: each seed configuration's store must be
/// beside it and be that configuration's, and every seed reference of a user record must name one
/// of its records (`docs/checks.md`).
enum SeedStoreDetector {
    /// Checks the seed stores of a user's store, on a connection of its own to the store at
    /// `location` (opened as the check's own: immutable or not) with the seed stores attached as
    /// immutable files: the other detectors' connection never sees another file's tables.
    static func check(_ context: CheckContext, location: String, configuration settings: Configuration) throws {
        guard let model = context.model, context.seedConfiguration == nil, !model.seedConfigurations.isEmpty else { return }
        let queue = try DatabaseQueue(path: location, configuration: settings)
        defer { try? queue.close() }
        try queue.inDatabase { db in
            // SQLite attaches at most ten databases to a connection.
            for (index, configuration) in model.seedConfigurations.map(\.name).prefix(8).enumerated() {
                let file = SyncStore.seedStorePath(of: context.path, configuration: configuration)
                guard FileManager.default.fileExists(atPath: file) else {
                    add(.seedStoreMissing, context, file: file,
                        "there is no seed store \(file): the records of seed configuration \(configuration) are not there, and references to them cannot be checked",
                        hint: "build it with `storekeep seed-store build \(context.path) --from SEEDSET` (or --from-sqlite FILE)")
                    continue
                }
                let schema = "seed_\(index)"
                do {
                    try SeedReferenceScan.attach(file, as: schema, to: db)
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(CheckSQL.identifier(schema)).sqlite_master")
                } catch {
                    try? db.execute(sql: "DETACH DATABASE \(CheckSQL.identifier(schema))")
                    add(.seedStoreMismatch, context, file: file, "the seed store \(file) cannot be read: \((error as? DatabaseError)?.message ?? "\(error)")",
                        hint: "build it again with `storekeep seed-store build \(context.path)`")
                    continue
                }
                if let problem = try mismatch(of: schema, configuration: configuration, model: model, db: db) {
                    add(.seedStoreMismatch, context, file: file, "the seed store \(file) \(problem)",
                        hint: "build it again for this store's model with `storekeep seed-store build \(context.path)`")
                    continue
                }
                try dangling(schema: schema, configuration: configuration, file: file, model: model, db: db, context)
            }
        }
    }

    /// Why the attached seed store cannot serve `configuration`, or `nil`.
    private static func mismatch(of schema: String, configuration: String, model: ManagedModel, db: Database) throws -> String? {
        let quoted = CheckSQL.identifier(schema)
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM \(quoted).sqlite_master WHERE type = 'table' AND name = 'sk_model'") == true,
              let definition = try Row.fetchOne(db, sql: "SELECT definition FROM \(quoted).sk_model LIMIT 1")?.stored("definition", as: String.self),
              let stored = try? JSONDecoder().decode(ManagedModel.self, from: Data(definition.utf8)) else {
            return "is not a storekeep store (it has no readable model)"
        }
        let role = try Row.fetchOne(db, sql: "SELECT value FROM \(quoted).sk_metadata WHERE key = ?", arguments: [SyncStore.seedConfigurationKey])?
            .stored("value", as: String.self)
        return SyncStore.seedStoreMismatch(role, model: stored, for: configuration, of: model)
    }

    private static func dangling(schema: String, configuration: String, file: String, model: ManagedModel, db: Database, _ context: CheckContext) throws {
        let limit = context.options.findingLimit ?? Int.max
        let (found, total) = try SeedReferenceScan.dangling(in: db, model: model, configuration: configuration, schema: schema, limit: limit)
        guard total > 0 else { return }
        let version = try Row.fetchOne(db, sql: "SELECT value FROM \(CheckSQL.identifier(schema)).sk_metadata WHERE key = 'seedVersion'")?
            .stored("value", as: String.self).map { " (version \($0))" } ?? ""
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
