import ObjectModel

/// The facts about one attribute that writing and digesting a record read for every record.
struct EntityPlanColumn: Sendable {
    let name: String
    let type: AttributeType
    let defaultValue: AttributeValue?
    let allowsExternalStorage: Bool
    /// Whether ``name`` is ASCII (``NameSearch``), for ``AttributeValues/value(named:nameIsASCII:)``.
    let nameIsASCII: Bool

    init(_ attribute: AttributeDescription) {
        name = attribute.name
        type = attribute.type
        defaultValue = attribute.defaultValue
        allowsExternalStorage = attribute.allowsExternalBinaryDataStorage
        nameIsASCII = NameSearch.isASCII(attribute.name)
    }
}
