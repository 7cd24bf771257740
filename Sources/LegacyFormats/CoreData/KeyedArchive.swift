import Foundation

/// A decoded `NSKeyedArchiver` archive: its object table with `CF$UID` references resolved on
/// demand. Only the plain shapes Core Data's model archive uses are understood: strings (also
/// `NSMutableString` objects), numbers, booleans, arrays and dictionaries (`NS.objects`/`NS.keys`,
/// and `NSKnownKeysDictionary1` with its `searchMapping` keys and `values`).
struct KeyedArchive {
    /// The `$objects` table.
    let objects: [Any]
    /// The index of the `root` object.
    let rootIndex: Int

    /// Reads the archive from a binary or XML property list; `nil` when it is not a keyed archive.
    init?(propertyList data: Data) {
        guard let top = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
            let objects = top["$objects"] as? [Any], let roots = top["$top"] as? [String: Any],
            let root = roots["root"], let rootIndex = Self.uid(root), objects.indices.contains(rootIndex)
        else { return nil }
        self.objects = objects
        self.rootIndex = rootIndex
    }

    /// The object index a `CF$UID` reference points at, if `value` is one.
    static func uid(_ value: Any) -> Int? {
        if let dictionary = value as? [String: Any], dictionary.count == 1, let number = dictionary["CF$UID"] as? NSNumber {
            return number.intValue
        }
        // Foundation surfaces binary-plist UIDs as an opaque class: `_NSKeyedArchiverUID` with a
        // stored `value` on Linux, `CFKeyedArchiverUID` whose description ends in `value = N}` on Apple systems.
        let typeName = String(describing: type(of: value))
        guard typeName.contains("KeyedArchiverUID") else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let number = child.value as? UInt32 { return Int(number) }
            if let number = child.value as? Int { return number }
        }
        let text = String(describing: value)
        if let range = text.range(of: "value = ") {
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        return nil
    }

    /// The object at `index`, or `nil` for `$null` and out-of-range indexes.
    func object(at index: Int) -> Any? {
        guard objects.indices.contains(index), index != 0 else { return nil }
        if let text = objects[index] as? String, text == "$null" { return nil }
        return objects[index]
    }

    /// The object a field refers to (following one `CF$UID` reference), or the field itself.
    func resolve(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let index = Self.uid(value) { return object(at: index) }
        return value
    }

    /// The dictionary stored at `index` (an archived object's fields).
    func fields(at index: Int) -> [String: Any]? { object(at: index) as? [String: Any] }

    /// The class name of an archived object.
    func className(of fields: [String: Any]) -> String? {
        guard let classRef = fields["$class"], let classFields = resolve(classRef) as? [String: Any] else { return nil }
        return classFields["$classname"] as? String
    }

    /// A field as a string, following references and unwrapping `NSMutableString` objects.
    func string(_ value: Any?) -> String? {
        let resolved = resolve(value)
        if let text = resolved as? String { return text == "$null" ? nil : text }
        if let object = resolved as? [String: Any], let text = object["NS.string"] as? String { return text }
        return nil
    }

    /// A field as an integer.
    func integer(_ value: Any?) -> Int? { (resolve(value) as? NSNumber)?.intValue }

    /// A field as a boolean (absent is `false`, as archives leave out false flags).
    func bool(_ value: Any?) -> Bool {
        guard let resolved = resolve(value) else { return false }
        if let flag = resolved as? Bool { return flag }
        return (resolved as? NSNumber)?.boolValue ?? false
    }

    /// The element references of an archived array or set, or the values of a dictionary.
    func elements(_ value: Any?) -> [Any] {
        guard let object = resolve(value) as? [String: Any] else { return [] }
        if let values = object["NS.objects"] as? [Any] { return values }
        if let valuesRef = object["values"] { return elements(valuesRef) }
        return []
    }

    /// The key/value pairs of an archived dictionary (references left unresolved).
    func pairs(_ value: Any?) -> [(key: Any, value: Any)] {
        guard let object = resolve(value) as? [String: Any], let values = object["NS.objects"] as? [Any],
            let keys = object["NS.keys"] as? [Any], keys.count == values.count
        else { return [] }
        return zip(keys, values).map { ($0, $1) }
    }
}
