import ObjectModel

/// How one attribute of the next model version gets its value from a record of the previous one.
public struct AttributeStep: Hashable, Sendable {
    /// Where the value comes from.
    public enum Origin: Hashable, Sendable {
        /// The previous version's attribute `from`, converted.
        case copy(from: String, conversion: ValueConversion)
        /// The value at the end of a key path through to-one relationships of the previous version
        /// (`["continent", "code"]`: the record's continent's code), converted; read through ``StepLookups``.
        case path([String], conversion: ValueConversion)
        /// The same value for every record (a step file's `value:`).
        case constant(AttributeValue)
        /// A value made for each record from its global ID (a step file's `generate:`).
        case generated(ValueGenerator)
        /// Nothing is carried over: the attribute takes its model default, or stays empty.
        case modelDefault
    }

    /// The attribute in the next version.
    public var name: String
    /// Its type in the next version.
    public var type: AttributeType
    /// Where its value comes from.
    public var origin: Origin
    /// The value an empty old value becomes (a required attribute's default), or `nil` to keep it empty.
    public var valueForEmpty: AttributeValue?

    /// Creates an attribute step.
    public init(name: String, type: AttributeType, origin: Origin, valueForEmpty: AttributeValue? = nil) {
        self.name = name
        self.type = type
        self.origin = origin
        self.valueForEmpty = valueForEmpty
    }
}
