/// The `properties` JSON of history insert changes (`["name","title"]`: the record's property
/// names, sorted), built once per entity and set of names instead of once per record: an import
/// writes thousands of records that set the same properties.
///
/// Bounded: when it holds ``capacity`` sets it starts over.
struct HistoryPropertiesCache {
    private struct Key: Hashable {
        let entity: String
        let names: Set<String>
    }

    /// How many distinct (entity, names) pairs are kept at most.
    static let capacity = 256
    private var cache: [Key: String] = [:]

    /// How many entries are cached.
    var count: Int { cache.count }

    /// The JSON array of the names `record` sets (values, to-one and to-many relationships) and of
    /// `defaulted`, the attributes the model gives a default value, sorted.
    mutating func properties(of record: ImportRecord, defaulted: [String]) -> String {
        var names = Set(record.values.names)
        names.formUnion(record.toOne.keys)
        names.formUnion(record.toMany.keys)
        let key = Key(entity: record.entity, names: names)
        if let json = cache[key] { return json }
        let json = Self.json(names.union(defaulted))
        if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
        cache[key] = json
        return json
    }

    /// The JSON array of `names`, sorted.
    static func json(_ names: Set<String>) -> String {
        "[" + names.sorted().map { "\"\(jsonEscaped($0))\"" }.joined(separator: ",") + "]"
    }

    private static func jsonEscaped(_ text: String) -> String {
        // Property names are identifiers: almost never anything to escape.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 < 0x20 }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
