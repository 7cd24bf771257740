import ObjectModel

/// Reads the XML attributes of model elements the way Xcode writes them: absent flags mean NO,
/// absent counts mean 0, absent types mean `Undefined`.
enum XcodeModelAttributes {
    /// `YES` (also `yes`, `true`, `1`) is true; anything else, and absence, is false.
    static func flag(_ value: String?) -> Bool {
        guard let value else { return false }
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": return true
        default: return false
        }
    }

    /// The attribute type, or `nil` for a type storekeep does not know.
    static func attributeType(_ raw: String?) -> AttributeType? {
        guard let raw, !raw.isEmpty else { return .undefined }
        if raw == "Object ID" { return .objectID }
        return AttributeType(rawValue: raw)
    }

    static func entity(name: String, _ xml: [String: String]) -> EntityDescription {
        EntityDescription(
            name: name, parentName: nonEmpty(xml["parentEntity"]), isAbstract: flag(xml["isAbstract"]),
            className: nonEmpty(xml["representedClassName"]), elementID: nonEmpty(xml["elementID"]),
            versionHashModifier: nonEmpty(xml["versionHashModifier"]))
    }

    static func attribute(name: String, type: AttributeType, _ xml: [String: String]) -> AttributeDescription {
        let defaultText = xml["defaultValueString"]
        return AttributeDescription(
            name: name, type: type, isOptional: flag(xml["optional"]), isTransient: flag(xml["transient"]),
            isDerived: flag(xml["derived"]), derivationExpression: nonEmpty(xml["derivationExpression"]),
            defaultValueString: defaultText,
            defaultValue: defaultText.flatMap { DefaultValueParser.value(of: $0, as: type) },
            allowsExternalBinaryDataStorage: flag(xml["allowsExternalBinaryDataStorage"]),
            isIndexed: flag(xml["indexed"]), elementID: nonEmpty(xml["elementID"]),
            versionHashModifier: nonEmpty(xml["versionHashModifier"]),
            minValueString: nonEmpty(xml["minValueString"]), maxValueString: nonEmpty(xml["maxValueString"]),
            regularExpression: nonEmpty(xml["regularExpressionString"]), compositeName: nonEmpty(xml["composite"]),
            valueTransformerName: nonEmpty(xml["valueTransformerName"]),
            usesScalarValueType: xml["usesScalarValueType"].map { flag($0) },
            preservesValueOnDeletion: flag(xml["preserveAfterDeletion"]) ? true : nil)
    }

    static func relationship(
        name: String, destination: String, rule: DeletionRule, _ xml: [String: String]
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destination: destination, inverseName: nonEmpty(xml["inverseName"]),
            inverseEntity: nonEmpty(xml["inverseEntity"]), isToMany: flag(xml["toMany"]),
            isOrdered: flag(xml["ordered"]), isOptional: flag(xml["optional"]), isTransient: flag(xml["transient"]),
            deletionRule: rule, minCount: count(xml["minCount"]), maxCount: count(xml["maxCount"]),
            elementID: nonEmpty(xml["elementID"]), versionHashModifier: nonEmpty(xml["versionHashModifier"]))
    }

    private static func count(_ value: String?) -> Int {
        value.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max($0, 0) } ?? 0
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
