import Foundation
import SyncStore

/// One seed store as `storekeep info` shows it: which configuration, where, what it was built from.
public struct SeedStoreSummary: Encodable, Sendable, Equatable {
    /// The seed configuration and the seed store file.
    public var configuration: String
    public var path: String
    /// `installed`, `missing` (never built), or `unusable` (see ``problem``).
    public var state: String
    /// Why it cannot be used, when it cannot.
    public var problem: String?
    /// The seed set it was built from, and its version.
    public var seedSet: String?
    public var version: Int?
    /// Its records in all.
    public var records: Int?

    /// The seed store of `configuration` beside `user`.
    init(configuration: String, beside user: SyncStore) {
        let path = user.seedStorePath(for: configuration)
        guard FileManager.default.fileExists(atPath: path) else {
            self.init(configuration: configuration, path: path, state: "missing")
            return
        }
        do {
            self.init(seedStore: try user.seedStore(for: configuration))
        } catch {
            self.init(configuration: configuration, path: path, state: "unusable")
            problem = (error as? StoreError)?.message ?? "\(error)"
        }
    }

    private init(configuration: String, path: String, state: String) {
        self.configuration = configuration
        self.path = path
        self.state = state
    }

    /// A seed store, described by itself.
    init(seedStore: SyncStore) {
        configuration = seedStore.metadata.seedConfiguration ?? ""
        path = seedStore.path
        state = "installed"
        let facts = (try? seedStore.seedStoreFacts()) ?? [:]
        seedSet = facts["seedSet"]
        version = facts["seedVersion"].flatMap { Int($0) }
        records = (try? seedStore.liveRecordCounts())?.values.reduce(0, +)
    }
}
