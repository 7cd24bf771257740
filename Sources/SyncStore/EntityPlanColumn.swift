import ObjectModel

/// The facts about one attribute that writing and digesting a record read for every record.
/// A class: loops over a plan's columns run for every record, and copying a struct holding a
/// string and a default value cost an outlined copy and destroy per column.
final class EntityPlanColumn: Sendable {
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
