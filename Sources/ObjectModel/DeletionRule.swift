/// What happens to a relationship's destination when its source is deleted (Core Data's rules).
public enum DeletionRule: String, Codable, Sendable, CaseIterable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}
