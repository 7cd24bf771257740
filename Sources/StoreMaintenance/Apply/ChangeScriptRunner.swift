import Foundation
import ObjectModel
import SyncStore

/// `storekeep apply`: saves a change file (``ChangeScript``) as **one** transaction through the
/// same path an app's save takes (history, clocks, blob files, deletion rules), or nothing at all.
///
/// ```swift
/// let report = try ChangeScriptRunner(path: "speeches.store", script: try ChangeScript(path: "fix.jsonl"), author: "ops").run()
/// report.sequence   // the transaction's number in this peer's history
/// ```
public struct ChangeScriptRunner: Sendable {
    /// The store.
    public let path: String
    /// The changes.
    public let script: ChangeScript
    /// The history author of the transaction.
    public let author: String
    /// Check every line against the store and save nothing.
    public let dryRun: Bool

    /// Creates a runner.
    public init(path: String, script: ChangeScript, author: String = "storekeep.apply", dryRun: Bool = false) {
        self.path = path
        self.script = script
        self.author = author
        self.dryRun = dryRun
    }

    /// What a run did.
    public struct Report: Codable, Sendable {
        public var store: String
        public var changes: String
        public var dryRun: Bool
        public var operations: Int
        public var inserted: [String] = []
        public var updated = 0
        public var deleted = 0
        /// The transaction's sequence number, when something was saved.
        public var sequence: Int64?
    }

    /// Applies every line in one save.
    ///
    /// - Throws: ``ChangeScriptError`` naming the line that cannot be applied (nothing is saved),
    ///   ``MaintenanceError`` when the store is busy, `StoreError`.
    public func run() throws -> Report {
        let lock = try StoreLock.acquire(for: path, command: "storekeep apply", waitingUpTo: 30)
        defer { lock.release() }
        let store = try SyncStore.open(at: path)
        var report = Report(store: path, changes: script.path, dryRun: dryRun, operations: script.count)
        do {
            try store.save(author: author) { tx in
                var applier = ScriptApplier(tx: tx, model: store.model, script: script)
                for line in script.lines { try applier.apply(line) }
                report.inserted = applier.inserted.map(\.rawValue)
                report.updated = applier.updated
                report.deleted = applier.deleted
                if dryRun { throw DryRunRollback() }
            }
        } catch is DryRunRollback {
            return report
        }
        report.sequence = try store.syncStatus().localSequence
        return report
    }
}

/// Thrown inside the save of a dry run so that nothing is committed.
private struct DryRunRollback: Error {}

/// Applies a change file's lines inside one store transaction.
struct ScriptApplier {
    let tx: StoreTransaction
    let model: ManagedModel
    let script: ChangeScript
    private(set) var inserted: [GlobalID] = []
    private(set) var updated = 0
    private(set) var deleted = 0

    init(tx: StoreTransaction, model: ManagedModel, script: ChangeScript) {
        self.tx = tx
        self.model = model
        self.script = script
    }

    mutating func apply(_ line: ChangeScript.Line) throws {
        do {
            switch line.operation {
            case .insert(let entity, let id, let values, let toOne, let toMany, let seed):
                let converted = try attributes(values, of: entity)
                let record = try tx.insert(entity, id: id, values: converted, seed: seed)
                try setRelationships(of: record, toOne: toOne, toMany: toMany)
                inserted.append(record)
            case .update(let reference, let values, let toOne, let toMany):
                let record = try resolve(reference)
                let entity = try tx.entity(of: record) ?? ""
                try tx.update(record, values: try attributes(values, of: entity))
                try setRelationships(of: record, toOne: toOne, toMany: toMany)
                updated += 1
            case .delete(let reference):
                try tx.delete(try resolve(reference))
                deleted += 1
            case .add(let reference, let relationship, let members), .remove(let reference, let relationship, let members):
                let record = try resolve(reference)
                var current = try tx.related(relationship, of: record)
                let targets = try members.map(resolve)
                if case .add = line.operation {
                    for target in targets where !current.contains(target) { current.append(target) }
                } else {
                    current.removeAll { targets.contains($0) }
                }
                try tx.setToMany(relationship, of: record, to: current)
                updated += 1
            }
        } catch let error as ChangeScriptError {
            throw ChangeScriptError(path: script.path, line: line.number, message: error.message, hint: error.hint)
        } catch let error as StoreError {
            throw ChangeScriptError(path: script.path, line: line.number, message: error.message)
        }
    }

    private func attributes(_ values: [String: JSONValue], of entity: String) throws -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        for (name, json) in values {
            guard let attribute = model.attribute(name, of: entity) else {
                throw ChangeScriptError(path: script.path, line: nil, message: "entity \(entity) has no attribute named '\(name)'")
            }
            switch ScriptValue.convert(json, to: attribute.type) {
            case .success(let value): result[name] = value
            case .failure(let mismatch): throw ChangeScriptError(path: script.path, line: nil, message: "\(entity).\(name): \(mismatch.reason)")
            }
        }
        return result
    }

    private func setRelationships(of record: GlobalID, toOne: [String: ChangeScript.Reference?], toMany: [String: [ChangeScript.Reference]]) throws {
        for (name, reference) in toOne.sorted(by: { $0.key < $1.key }) {
            try tx.setToOne(name, of: record, to: try reference.map(resolve))
        }
        for (name, references) in toMany.sorted(by: { $0.key < $1.key }) {
            try tx.setToMany(name, of: record, to: try references.map(resolve))
        }
    }

    /// The record a reference names; by key, exactly one record must match.
    private func resolve(_ reference: ChangeScript.Reference) throws -> GlobalID {
        switch reference {
        case .id(let id):
            guard try tx.entity(of: id) != nil else {
                throw ChangeScriptError(path: script.path, line: nil, message: "there is no record with global ID \(id)")
            }
            return id
        case .key(let entity, let key):
            let values = try attributes(key, of: entity)
            let found = try tx.records(of: entity, matching: values)
            guard found.count == 1 else {
                let shown = key.keys.sorted().joined(separator: ", ")
                throw ChangeScriptError(path: script.path, line: nil,
                                        message: found.isEmpty ? "no \(entity) record has those values of \(shown)" : "\(found.count) \(entity) records have those values of \(shown); name one by global ID")
            }
            return found[0]
        }
    }
}
