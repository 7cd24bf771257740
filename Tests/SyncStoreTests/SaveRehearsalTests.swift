import Foundation
import GRDB
import ObjectModel
import Testing
@testable import SyncStore

/// A ``SaveRehearsal`` predicts a save: random sequences of deletions, merges and reference fixes
/// are rehearsed, then made for real one save each, on a graph using every kind of relationship
/// storage and every deletion rule; the verdicts, the records left, every relationship's members
/// and the external files left unreferenced must agree.
@Suite struct SaveRehearsalTests {
    private enum Operation: CustomStringConvertible {
        case delete(GlobalID)
        case merge(GlobalID, into: GlobalID)
        case clear(String, GlobalID)
        case release(String, GlobalID)

        var description: String {
            switch self {
            case .delete(let id): return "delete \(id)"
            case .merge(let duplicate, let keeper): return "merge \(duplicate) into \(keeper)"
            case .clear(let name, let id): return "clear \(name) of \(id)"
            case .release(let name, let id): return "release \(name) of \(id)"
            }
        }
    }

    /// A small deterministic generator (SplitMix64), so that a failing seed can be run again.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Builds a random graph: projects with (cascading, ordered) tasks, notes and tasks with tags
    /// (many-to-many), folders holding notes (Deny), owners and profiles (one-to-one, some pairs
    /// broken), attachments with shared external values pointing at notes (some dangling).
    private func graph(_ store: SyncStore, _ random: inout Generator) throws -> [String: [GlobalID]] {
        var ids: [String: [GlobalID]] = [:]
        try store.save(author: "test") { tx in
            for entity in ["Project", "Task", "Note", "Tag", "Folder", "Owner", "Profile"] {
                for index in 0..<Int.random(in: 3...6, using: &random) {
                    var values: [String: AttributeValue] = [:]
                    if ["Project", "Tag", "Folder", "Owner"].contains(entity) { values["name"] = .string("\(entity) \(index)") }
                    if ["Task", "Note"].contains(entity) { values["title"] = .string("\(entity) \(index)") }
                    ids[entity, default: []].append(try tx.insert(entity, values: values))
                }
            }
            let items = (ids["Task"] ?? []) + (ids["Note"] ?? [])
            for task in ids["Task"] ?? [] where Bool.random(using: &random) {
                try tx.setToOne("project", of: task, to: ids["Project"]?.randomElement(using: &random))
            }
            for item in items {
                try tx.setToMany("tags", of: item, to: (ids["Tag"] ?? []).filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
            }
            for folder in ids["Folder"] ?? [] where Bool.random(using: &random) {
                try tx.setToMany("notes", of: folder, to: (ids["Note"] ?? []).filter { _ in Bool.random(using: &random) })
            }
            for (owner, profile) in zip(ids["Owner"] ?? [], ids["Profile"] ?? []) where Int.random(in: 0..<4, using: &random) > 0 {
                try tx.setToOne("profile", of: owner, to: profile)
            }
            for index in 0..<5 {
                let data = Data(repeating: UInt8(index % 3), count: SyncStore.externalStorageThreshold + 10)
                let attachment = try tx.insert("Attachment", values: ["data": .binary(data)])
                try tx.setToOne("note", of: attachment, to: ids["Note"]?.randomElement(using: &random))
                ids["Attachment", default: []].append(attachment)
            }
        }
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            // Damage the kind repair fixes: a reference to nothing, and a one-to-one pair that disagrees.
            if let attachment = ids["Attachment"]?.first {
                try db.execute(sql: "UPDATE e_Attachment SET r_note = 'MISSING' WHERE _gid = ?", arguments: [attachment.rawValue])
            }
            if let owner = ids["Owner"]?.last, let profile = ids["Profile"]?.first {
                try db.execute(sql: "UPDATE e_Owner SET r_profile = ? WHERE _gid = ?", arguments: [profile.rawValue, owner.rawValue])
            }
        }
        try queue.close()
        return ids
    }

    private func operations(_ ids: [String: [GlobalID]], _ random: inout Generator) -> [Operation] {
        let all = ids.values.flatMap { $0 }.sorted()
        return (0..<12).map { _ in
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: return .delete(all.randomElement(using: &random) ?? GlobalID("none"))
            case 2, 3:
                let entity = ["Note", "Task", "Tag", "Project", "Folder"].randomElement(using: &random) ?? "Note"
                let pool = ids[entity] ?? []
                return .merge(pool.randomElement(using: &random) ?? GlobalID("none"), into: pool.randomElement(using: &random) ?? GlobalID("none"))
            case 4: return .clear("note", ids["Attachment"]?.randomElement(using: &random) ?? GlobalID("none"))
            default: return .release("profile", ids["Owner"]?.randomElement(using: &random) ?? GlobalID("none"))
            }
        }
    }

    /// Every live record's relationships, as member sets, read with `members`.
    private func snapshot(_ ids: [String: [GlobalID]], model: ManagedModel, members: (String, GlobalID) throws -> [GlobalID]?) rethrows
        -> [String: Set<GlobalID>] {
        var result: [String: Set<GlobalID>] = [:]
        for (entity, list) in ids {
            for id in list {
                for relationship in model.relationships(of: entity) {
                    if let found = try members(relationship.name, id) { result["\(id) \(relationship.name)"] = Set(found) }
                }
            }
        }
        return result
    }

    private func referencedDigests(_ path: String) throws -> Set<String> {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return Set(try queue.read { try String.fetchAll($0, sql: "SELECT a_data FROM e_Attachment WHERE a_data LIKE 'sha256:%'") }
            .map { String($0.dropFirst("sha256:".count)) })
    }

    @Test(arguments: 1...20) func aRehearsalPredictsTheSaves(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        let store = try SyncStore.create(at: folder.path("r.store"), model: TestModels.workspace(), contentName: "Rehearsal")
        var random = Generator(state: seed)
        let ids = try graph(store, &random)
        let operations = operations(ids, &random)
        let digestsBefore = try referencedDigests(store.path)

        let (verdicts, predicted, released) = try store.rehearse { rehearsal in
            var verdicts: [Bool] = []
            for operation in operations {
                switch operation {
                case .delete(let id):
                    if case .done = try rehearsal.delete(id) { verdicts.append(true) } else { verdicts.append(false) }
                case .merge(let duplicate, let keeper):
                    if case .done = try rehearsal.merge(duplicate, into: keeper) { verdicts.append(true) } else { verdicts.append(false) }
                case .clear(let name, let holder):
                    verdicts.append((try? rehearsal.clearInvalidReference(name, of: holder)) != nil)
                case .release(let name, let holder):
                    verdicts.append((try? rehearsal.releaseUnreturnedReference(name, of: holder)) != nil)
                }
            }
            let predicted = try snapshot(ids, model: store.model) { name, id in
                try rehearsal.entity(of: id) == nil ? nil : try rehearsal.members(of: name, of: id)
            }
            return (verdicts, predicted, try rehearsal.releasedBlobDigests())
        }

        for (operation, allowed) in zip(operations, verdicts) {
            let outcome = Result {
                try store.save(author: "test") { tx in
                    switch operation {
                    case .delete(let id): try tx.delete(id)
                    case .merge(let duplicate, let keeper): try tx.merge(duplicate, into: keeper)
                    case .clear(let name, let holder): try tx.clearInvalidReference(name, of: holder)
                    case .release(let name, let holder): try tx.releaseUnreturnedReference(name, of: holder)
                    }
                }
            }
            switch outcome {
            case .success: #expect(allowed, "seed \(seed): the rehearsal refused \(operation), the save made it")
            case .failure(let error): #expect(!allowed, "seed \(seed): the rehearsal allowed \(operation), the save refused it: \(error)")
            }
        }
        let actual = try snapshot(ids, model: store.model) { name, id in
            try store.record(id) == nil ? nil : try store.related(name, of: id)
        }
        #expect(predicted == actual, "seed \(seed), operations \(operations)")
        #expect(Set(released) == digestsBefore.subtracting(try referencedDigests(store.path)), "seed \(seed)")
    }
}
