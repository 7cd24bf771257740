import Foundation

/// How storekeep writes JSON: keys sorted, pretty-printed, ISO-8601 dates, slashes unescaped.
///
/// Sorted keys keep the output stable for diffs and tests; fields are only ever added.
///
/// ```swift
/// let text = try JSONOutput.render(["version": "0.1.0"])
/// ```
enum JSONOutput {
    /// A new encoder with storekeep's output settings.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The JSON text of `value`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (for example a NaN).
    static func render<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try makeEncoder().encode(value), as: UTF8.self)
    }
}
