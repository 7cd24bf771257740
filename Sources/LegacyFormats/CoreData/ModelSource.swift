/// Where a ``CoreDataStoreReader`` got the model it reads the store with.
public enum ModelSource: String, Sendable, Codable, Equatable {
    /// The caller gave the model, and its entities map onto the store's.
    case given
    /// Decoded from the store's own `Z_MODELCACHE` table.
    case modelCache
    /// Inferred from `Z_PRIMARYKEY` and the tables' columns.
    case inferred

    /// One sentence for an operator, e.g. "model inferred from Z_PRIMARYKEY and the tables' columns; …".
    public var sentence: String {
        switch self {
        case .given:
            return "model given by the caller and checked against Z_PRIMARYKEY and the tables' columns"
        case .modelCache:
            return "model decoded from the store's Z_MODELCACHE"
        case .inferred:
            return "model inferred from Z_PRIMARYKEY and the tables' columns; entity names are as stored in "
                + "Z_PRIMARYKEY, attribute and relationship names are the column names without their leading Z, "
                + "upper-cased as stored"
        }
    }
}
