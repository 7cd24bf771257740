import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ObjectModel

/// What one `contents` file holds, before storekeep facts and structural checks are applied.
struct ParsedModelContents {
    var versionIdentifier = ""
    var entities: [EntityDescription] = []
    /// The line where each entity starts, by entity name (for messages about the entity).
    var entityLines: [String: Int] = [:]
    /// The line where an entity declared a second time starts, by entity name.
    var repeatedEntityLines: [String: Int] = [:]
    /// The line where each property starts, by entity name and property name (the later one of
    /// two properties with one name).
    var propertyLines: [String: [String: Int]] = [:]
    /// The line where each configuration starts, by name.
    var configurationLines: [String: Int] = [:]
    /// Whether the file has its `<model>` root element.
    var hasModelElement = false
    var configurations: [ConfigurationDescription] = []
    var composites: [CompositeDescription] = []

    /// The line a model problem is about, when the file says where its entity, property or
    /// configuration is declared.
    func line(of problem: ModelProblem) -> Int? {
        if let configuration = problem.configuration { return configurationLines[configuration] }
        guard let entity = problem.entity else { return nil }
        if let property = problem.property, let line = propertyLines[entity]?[property] { return line }
        if problem.occurrence > 1, problem.property == nil, let line = repeatedEntityLines[entity] { return line }
        return entityLines[entity]
    }
}

/// Parses the XML of one `.xcdatamodel/contents` file with Foundation's `XMLParser`.
///
/// Elements and attributes it does not know are skipped, so that files from newer Xcode versions
/// still load; values it knows but cannot use (an unknown attribute type, a missing name) stop it.
final class ModelContentsParser: NSObject, XMLParserDelegate {
    /// Files larger than this are refused: real model files are a few kilobytes, and
    /// `XMLParser(data:)` fails on large inputs.
    static let maximumFileSize = 8 * 1024 * 1024

    private let path: String
    private var result = ParsedModelContents()
    private var failure: XcodeModelError?
    private var stack: [String] = []

    private var entity: EntityDescription?
    private var entityLine = 0
    private var propertyLine = 0
    private var compoundIndexCount = 0
    private var attribute: AttributeDescription?
    private var relationship: RelationshipDescription?
    private var composite: CompositeDescription?
    private var configuration: ConfigurationDescription?
    private var constraint: [String]?
    private var fetchIndex: FetchIndexDescription?
    private var compoundIndex: [String]?

    private init(path: String) {
        self.path = path
    }

    /// Parses `data`, the content of the file at `path`.
    static func parse(_ data: Data, path: String) throws(XcodeModelError) -> ParsedModelContents {
        guard !data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw XcodeModelError(path: path, line: 1, problem: "the model file is empty", hint: emptyHint)
        }
        let delegate = ModelContentsParser(path: path)
        let parsed = XMLDocumentParse(data, delegate: delegate)
        if let failure = delegate.failure { throw failure }
        if let reason = parsed.failure {
            throw XcodeModelError(path: path, line: parsed.line, column: parsed.column, problem: "malformed XML: \(reason)", hint: Self.malformedHint)
        }
        let result = delegate.result
        guard result.hasModelElement else {
            throw XcodeModelError(path: path, line: parsed.line, problem: "the file holds no <model> element", hint: emptyHint)
        }
        guard !result.entities.isEmpty else {
            throw XcodeModelError(
                path: path, line: 1, problem: "the model declares no entities",
                hint: "a data model needs at least one entity; check that this is the right file, or restore it from version control")
        }
        return result
    }

    private static let emptyHint = "restore the file from version control or re-save the model in Xcode; check that this is the right file"

    private static let malformedHint =
        "the file is not well-formed XML; restore it from version control or re-save the model in Xcode"

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        failure = XcodeModelError(
            path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
            problem: "malformed XML: \(XMLErrorText.reason(of: parseError))", hint: Self.malformedHint)
        parser.abortParsing()
    }

    private func fail(_ parser: XMLParser, _ problem: String, hint: String) {
        guard failure == nil else { return }
        failure = XcodeModelError(
            path: path, line: parser.lineNumber, column: parser.columnNumber, problem: problem, hint: hint)
        parser.abortParsing()
    }

    private func required(_ key: String, in attributes: [String: String], of element: String, _ parser: XMLParser) -> String? {
        if let value = attributes[key], !value.isEmpty { return value }
        fail(parser, "<\(element)> has no \(key)", hint: "every <\(element)> needs a \(key); re-save the model in Xcode")
        return nil
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        let parent = stack.last
        stack.append(elementName)
        if parent == nil {
            guard elementName == "model" else {
                fail(parser, "unknown root element <\(elementName)>, expected <model>",
                     hint: "this is not the contents file of an Xcode data model")
                return
            }
            result.versionIdentifier = attributes["userDefinedModelVersionIdentifier"] ?? ""
            result.hasModelElement = true
            return
        }
        switch (parent, elementName) {
        case ("model", "entity"):
            guard let name = required("name", in: attributes, of: "entity", parser) else { return }
            entity = XcodeModelAttributes.entity(name: name, attributes)
            entityLine = parser.lineNumber
            compoundIndexCount = 0
        case ("model", "composite"):
            guard let name = required("name", in: attributes, of: "composite", parser) else { return }
            composite = CompositeDescription(name: name, attributes: [])
        case ("model", "configuration"):
            guard let name = required("name", in: attributes, of: "configuration", parser) else { return }
            configuration = ConfigurationDescription(
                name: name, entityNames: [], usedWithCloudKit: XcodeModelAttributes.flag(attributes["usedWithCloudKit"]))
            result.configurationLines[name] = result.configurationLines[name] ?? parser.lineNumber
        case ("configuration", "memberEntity"):
            if let name = required("name", in: attributes, of: "memberEntity", parser) { configuration?.entityNames.append(name) }
        case ("entity", "attribute"), ("composite", "attribute"):
            guard let name = required("name", in: attributes, of: "attribute", parser) else { return }
            let rawType = attributes["attributeType"]
            guard let type = XcodeModelAttributes.attributeType(rawType) else {
                fail(parser, "attribute \(name) has unknown type '\(rawType ?? "")'",
                     hint: "known types: \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))")
                return
            }
            attribute = XcodeModelAttributes.attribute(name: name, type: type, attributes)
            propertyLine = parser.lineNumber
        case ("entity", "relationship"):
            guard let name = required("name", in: attributes, of: "relationship", parser),
                  let destination = required("destinationEntity", in: attributes, of: "relationship", parser) else { return }
            let rawRule = attributes["deletionRule"] ?? DeletionRule.nullify.rawValue
            guard let rule = DeletionRule(rawValue: rawRule) else {
                fail(parser, "relationship \(name) has unknown deletion rule '\(rawRule)'",
                     hint: "known rules: \(DeletionRule.allCases.map(\.rawValue).joined(separator: ", "))")
                return
            }
            relationship = XcodeModelAttributes.relationship(name: name, destination: destination, rule: rule, attributes)
            propertyLine = parser.lineNumber
        case ("entity", "fetchedProperty"):
            if let name = required("name", in: attributes, of: "fetchedProperty", parser) { entity?.fetchedPropertyNames.append(name) }
        case ("userInfo", "entry"):
            guard stack.count >= 3, let key = attributes["key"] else { return }
            let value = attributes["value"] ?? ""
            switch stack[stack.count - 3] {
            case "attribute": attribute?.userInfo[key] = value
            case "relationship": relationship?.userInfo[key] = value
            case "entity": entity?.userInfo[key] = value
            case "configuration": configuration?.userInfo[key] = value
            default: break
            }
        case ("uniquenessConstraints", "uniquenessConstraint"):
            constraint = []
        case ("uniquenessConstraint", "constraint"):
            if let value = attributes["value"], !value.isEmpty { constraint?.append(value) }
        case ("entity", "fetchIndex"):
            guard let name = required("name", in: attributes, of: "fetchIndex", parser) else { return }
            fetchIndex = FetchIndexDescription(name: name, elements: [])
        case ("fetchIndex", "fetchIndexElement"):
            guard let property = required("property", in: attributes, of: "fetchIndexElement", parser) else { return }
            fetchIndex?.elements.append(.init(
                property: property, type: attributes["type"],
                ascending: attributes["order"]?.lowercased() != "descending"))
        case ("compoundIndexes", "compoundIndex"):
            compoundIndex = []
        case ("compoundIndex", "index"):
            if let value = attributes["value"], !value.isEmpty { compoundIndex?.append(value) }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil else { return }
        stack.removeLast()
        let parent = stack.last
        switch (parent, elementName) {
        case ("model", "entity"):
            if let finished = entity {
                result.entities.append(finished)
                if result.entityLines[finished.name] == nil {
                    result.entityLines[finished.name] = entityLine
                } else {
                    result.repeatedEntityLines[finished.name] = result.repeatedEntityLines[finished.name] ?? entityLine
                }
            }
            entity = nil
        case ("model", "composite"):
            if let finished = composite { result.composites.append(finished) }
            composite = nil
        case ("model", "configuration"):
            if let finished = configuration { result.configurations.append(finished) }
            configuration = nil
        case ("entity", "attribute"):
            if let finished = attribute, let owner = entity {
                entity?.attributes.append(finished)
                result.propertyLines[owner.name, default: [:]][finished.name] = propertyLine
            }
            attribute = nil
        case ("composite", "attribute"):
            if let finished = attribute { composite?.attributes.append(finished) }
            attribute = nil
        case ("entity", "relationship"):
            if let finished = relationship, let owner = entity {
                entity?.relationships.append(finished)
                result.propertyLines[owner.name, default: [:]][finished.name] = propertyLine
            }
            relationship = nil
        case ("uniquenessConstraints", "uniquenessConstraint"):
            if let finished = constraint, !finished.isEmpty { entity?.uniquenessConstraints.append(finished) }
            constraint = nil
        case ("entity", "fetchIndex"):
            if let finished = fetchIndex { entity?.fetchIndexes.append(finished) }
            fetchIndex = nil
        case ("compoundIndexes", "compoundIndex"):
            if let finished = compoundIndex, !finished.isEmpty {
                compoundIndexCount += 1
                entity?.fetchIndexes.append(FetchIndexDescription(
                    name: "compoundIndex\(compoundIndexCount)", elements: finished.map { .init(property: $0) }))
            }
            compoundIndex = nil
        default:
            break
        }
    }
}
