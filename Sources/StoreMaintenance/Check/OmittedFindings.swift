/// Findings left out of a report because ``CheckOptions/findingLimit`` was reached for their
/// code, entity and property.
public struct OmittedFindings: Codable, Sendable, Hashable {
    /// The code of the findings left out.
    public var code: CheckCode
    /// Their entity, if any.
    public var entity: String?
    /// Their property, if any.
    public var property: String?
    /// How many were left out.
    public var count: Int

    /// Creates an entry.
    public init(code: CheckCode, entity: String?, property: String?, count: Int) {
        self.code = code
        self.entity = entity
        self.property = property
        self.count = count
    }
}
