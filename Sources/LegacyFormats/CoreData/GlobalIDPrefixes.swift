/// The `x-coredata://<store UUID>/<Entity>/p` part of global IDs, made once per entity while a
/// batch is read, so that each record's ID is one concatenation with its primary key.
struct GlobalIDPrefixes {
    let storeUUID: String
    private var prefixes: [String: String] = [:]

    init(storeUUID: String) {
        self.storeUUID = storeUUID
    }

    /// `x-coredata://<store UUID>/<entity>/p`: Core Data's URI of a managed object, without its number.
    static func prefix(storeUUID: String, entity: String) -> String {
        "x-coredata://\(storeUUID)/\(entity)/p"
    }

    /// `x-coredata://<store UUID>/<entity>/p<primaryKey>`, as ``CoreDataStoreReader/globalID(entity:primaryKey:)``.
    mutating func globalID(entity: String, primaryKey: Int64) -> String {
        if let prefix = prefixes[entity] { return prefix + String(primaryKey) }
        let prefix = Self.prefix(storeUUID: storeUUID, entity: entity)
        prefixes[entity] = prefix
        return prefix + String(primaryKey)
    }
}
