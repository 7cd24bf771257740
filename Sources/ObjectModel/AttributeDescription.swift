/// One attribute of an entity, as declared in an Xcode data model.
///
/// Flags follow Xcode's file format: a flag that is absent from the file is `false`
/// (so an attribute without `optional="YES"` is required).
///
/// ```swift
/// let title = AttributeDescription(name: "title", type: .string)
/// ```
public struct AttributeDescription: Hashable, Sendable, Codable {
    /// The attribute's name, unique within its entity and the entity's ancestors.
    public var name: String
    /// The attribute's type.
    public var type: AttributeType
    /// Whether a record may leave the value empty.
    public var isOptional: Bool
    /// Whether the value lives only in memory (never stored, never synced).
    public var isTransient: Bool
    /// Whether the value is derived from other values by `derivationExpression`.
    public var isDerived: Bool
    /// The derivation expression of a derived attribute, as written in the model.
    public var derivationExpression: String?
    /// The default value exactly as written in the model (`defaultValueString`).
    public var defaultValueString: String?
    /// The default value parsed for the attribute's type, or `nil` when absent or unparseable.
    public var defaultValue: AttributeValue?
    /// Whether large values may be kept outside the database (content-addressed files).
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether the value is indexed (a hint for the store).
    public var isIndexed: Bool
    /// The renaming identifier: an attribute of a later version with the same `elementID` is this one renamed.
    public var elementID: String?
    /// Text mixed into the version hash to force a new hash without a schema change.
    public var versionHashModifier: String?
    /// The minimum value (numbers, dates) or length (strings), as written in the model.
    public var minValueString: String?
    /// The maximum value (numbers, dates) or length (strings), as written in the model.
    public var maxValueString: String?
    /// A regular expression every string value must match.
    public var regularExpression: String?
    /// The name of the composite type of a `Composite` attribute.
    public var compositeName: String?
    /// The value transformer of a `Transformable` attribute.
    public var valueTransformerName: String?
    /// Whether generated code uses a scalar type (recorded, not used for storage).
    public var usesScalarValueType: Bool?
    /// `true` when Xcode's "Preserve After Deletion" is set (`preserveAfterDeletion="YES"`): Core Data
    /// keeps the value in its persistent history tombstones, and the flag enters Core Data's version
    /// hash. `nil` when not set (kept optional so that models stored without it still decode).
    public var preservesValueOnDeletion: Bool?
    /// Free-form key/value pairs from the model editor.
    public var userInfo: [String: String]

    /// Creates an attribute description; every flag defaults to Xcode's "absent" meaning.
    public init(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        isDerived: Bool = false, derivationExpression: String? = nil, defaultValueString: String? = nil,
        defaultValue: AttributeValue? = nil, allowsExternalBinaryDataStorage: Bool = false,
        isIndexed: Bool = false, elementID: String? = nil, versionHashModifier: String? = nil,
        minValueString: String? = nil, maxValueString: String? = nil, regularExpression: String? = nil,
        compositeName: String? = nil, valueTransformerName: String? = nil, usesScalarValueType: Bool? = nil,
        preservesValueOnDeletion: Bool? = nil, userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.defaultValueString = defaultValueString
        self.defaultValue = defaultValue
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.isIndexed = isIndexed
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.regularExpression = regularExpression
        self.compositeName = compositeName
        self.valueTransformerName = valueTransformerName
        self.usesScalarValueType = usesScalarValueType
        self.preservesValueOnDeletion = preservesValueOnDeletion
        self.userInfo = userInfo
    }
}
