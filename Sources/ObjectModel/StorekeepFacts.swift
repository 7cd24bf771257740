/// What storekeep knows about an entity beyond Core Data's own schema.
///
/// The facts are read from the entity's `userInfo` (which Xcode's model editor edits):
///
/// | key | value | meaning |
/// |---|---|---|
/// | `storekeep.seedKey` | attribute names, comma-separated | the attributes that identify a seed record |
/// | `storekeep.singleton` | `YES` / `NO` | the entity has at most one live record |
/// | `storekeep.invalidRecordPolicy` | `delete` / `nullify` / `keep` | what `repair` does with an invalid record |
///
/// ```swift
/// let facts = try StorekeepFacts(userInfo: ["storekeep.seedKey": "name"], entityName: "SpeechType",
///                                attributeNames: ["name", "greenSeconds"])
/// facts.seedKey == ["name"]
/// ```
public struct StorekeepFacts: Hashable, Sendable, Codable {
    /// The `userInfo` key naming the attributes that identify a seed record.
    public static let seedKeyKey = "storekeep.seedKey"
    /// The `userInfo` key marking a singleton entity.
    public static let singletonKey = "storekeep.singleton"
    /// The `userInfo` key giving the invalid-record policy.
    public static let invalidRecordPolicyKey = "storekeep.invalidRecordPolicy"

    /// The attributes that identify a seed record (empty: the entity is not seeded by key).
    public var seedKey: [String]
    /// Whether the entity must have at most one live record.
    public var isSingleton: Bool
    /// What `repair` does with a record that breaks the model's rules.
    public var invalidRecordPolicy: InvalidRecordPolicy

    /// Creates facts directly.
    public init(seedKey: [String] = [], isSingleton: Bool = false, invalidRecordPolicy: InvalidRecordPolicy = .keep) {
        self.seedKey = seedKey
        self.isSingleton = isSingleton
        self.invalidRecordPolicy = invalidRecordPolicy
    }

    /// Reads the facts from an entity's `userInfo`, checking every storekeep key it finds.
    ///
    /// - Parameters:
    ///   - userInfo: the entity's `userInfo` pairs.
    ///   - entityName: the entity, for messages.
    ///   - attributeNames: every attribute the entity has (inherited ones included), to check `seedKey`.
    /// - Throws: ``ModelFactError`` naming the key and what is wrong with its value.
    public init(userInfo: [String: String], entityName: String, attributeNames: Set<String>) throws(ModelFactError) {
        self.init()
        if let raw = userInfo[Self.seedKeyKey] {
            let names = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if names.isEmpty {
                throw ModelFactError(entity: entityName, key: Self.seedKeyKey, value: raw, problem: "names no attribute")
            }
            if let unknown = names.first(where: { !attributeNames.contains($0) }) {
                throw ModelFactError(
                    entity: entityName, key: Self.seedKeyKey, value: raw,
                    problem: "names '\(unknown)', which is not an attribute of \(entityName)")
            }
            seedKey = names
        }
        if let raw = userInfo[Self.singletonKey] {
            switch raw.trimmingCharacters(in: .whitespaces).lowercased() {
            case "yes", "true", "1": isSingleton = true
            case "no", "false", "0": isSingleton = false
            default:
                throw ModelFactError(entity: entityName, key: Self.singletonKey, value: raw, problem: "is not YES or NO")
            }
        }
        if let raw = userInfo[Self.invalidRecordPolicyKey] {
            guard let policy = InvalidRecordPolicy(rawValue: raw.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw ModelFactError(
                    entity: entityName, key: Self.invalidRecordPolicyKey, value: raw,
                    problem: "is not one of delete, nullify, keep")
            }
            invalidRecordPolicy = policy
        }
    }

    /// Whether every fact has its default value.
    public var isEmpty: Bool { seedKey.isEmpty && !isSingleton && invalidRecordPolicy == .keep }
}

import Foundation
