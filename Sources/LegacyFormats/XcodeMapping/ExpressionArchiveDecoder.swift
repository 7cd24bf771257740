import Foundation

/// Decodes an `NSExpression` keyed archive (a mapping model's `valueexpressiondata`) into a
/// ``MappingExpression``. Forms it does not know become ``MappingExpression/unsupported(_:)``
/// rather than errors: a mapping model still loads, and only a property that needs such an
/// expression is reported.
enum ExpressionArchiveDecoder {
    /// Expressions nested deeper than this are refused (real ones are a few levels deep).
    static let maximumDepth = 32

    /// The expression archived in `data`.
    static func decode(_ data: Data) -> MappingExpression {
        guard let archive = KeyedArchive(propertyList: data) else { return .unsupported("data that is not a keyed archive") }
        return expression(at: archive.rootIndex, in: archive, depth: 0)
    }

    private static func expression(at index: Int, in archive: KeyedArchive, depth: Int) -> MappingExpression {
        guard depth < maximumDepth else { return .unsupported("an expression nested too deeply") }
        guard let fields = archive.fields(at: index) else { return .unsupported("a missing object") }
        return expression(fields, in: archive, depth: depth)
    }

    private static func expression(reference: Any?, in archive: KeyedArchive, depth: Int) -> MappingExpression? {
        guard let reference, let index = KeyedArchive.uid(reference) else { return nil }
        if archive.object(at: index) == nil { return nil }
        return expression(at: index, in: archive, depth: depth + 1)
    }

    private static func expression(_ fields: [String: Any], in archive: KeyedArchive, depth: Int) -> MappingExpression {
        let className = archive.className(of: fields) ?? "an object without a class"
        switch className {
        case "NSConstantValueExpression":
            return .constant(constant(fields["NSConstantValue"], in: archive) ?? .null)
        case "NSVariableExpression":
            guard let name = archive.string(fields["NSVariable"]) else { return .unsupported("a variable without a name") }
            return .variable(name)
        case "NSKeyPathSpecifierExpression":
            guard let path = archive.string(fields["NSKeyPath"]) else { return .unsupported("a key path without text") }
            return .keyPath(base: nil, path: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        case "NSSelfExpression":
            return .variable("self")
        case "NSFetchRequestExpression":
            // FETCH(request, context, countOnly): an entity mapping's source expression.
            let request = expression(reference: fields["NSRequest"], in: archive, depth: depth) ?? .constant(.null)
            let context = expression(reference: fields["NSContext"], in: archive, depth: depth) ?? .constant(.null)
            return .function(target: nil, selector: "FETCH", arguments: [request, context])
        case "NSKeyPathExpression", "NSFunctionExpression":
            let selector = archive.string(fields["NSSelectorName"]) ?? ""
            let arguments = archive.elements(fields["NSArguments"]).map { reference in
                self.expression(reference: reference, in: archive, depth: depth) ?? .constant(.null)
            }
            let operand = expression(reference: fields["NSOperand"], in: archive, depth: depth)
            if selector == "valueForKeyPath:" || selector == "valueForKey:", arguments.count == 1 {
                switch arguments[0] {
                case .keyPath(nil, let path): return .keyPath(base: operand, path: path)
                case .constant(.string(let key)): return .keyPath(base: operand, path: key.split(separator: ".").map(String.init))
                default: break
                }
            }
            // Foundation's built-in functions (`lowercase:(x)`) are archived with a constant operand
            // (the class that implements them); methods called on a value have that value as operand.
            if case .constant? = operand { return .function(target: nil, selector: selector, arguments: arguments) }
            return .function(target: operand, selector: selector, arguments: arguments)
        default:
            return .unsupported(className)
        }
    }

    private static func constant(_ value: Any?, in archive: KeyedArchive) -> MappingExpression.Constant? {
        guard let resolved = archive.resolve(value) else { return .null }
        if let text = archive.string(resolved) { return .string(text) }
        // Exact types first: a property list's 1 can also be read as `true` through bridging.
        if type(of: resolved) == Bool.self, let flag = resolved as? Bool { return .boolean(flag) }
        if let number = resolved as? Int, type(of: resolved) != Double.self { return .integer(Int64(number)) }
        if let number = resolved as? Double { return .real(number) }
        if let number = resolved as? NSNumber { return .real(number.doubleValue) }
        if let object = resolved as? [String: Any] {
            if let time = object["NS.time"] as? Double { return .date(time) }
            if let time = object["NS.time"] as? NSNumber { return .date(time.doubleValue) }
        }
        return nil
    }
}
