import Foundation

/// A storekeep config file: `key: value` lines, blank lines, and `#` comments.
///
/// ```text
/// # nightly check settings
/// log-level: warning
/// json: true   # for the monitoring script
/// ```
/// A value may be wrapped in single or double quotes (needed when it contains ` #`).
/// Keys must be among ``SettingKey/configFileKeys``; anything else is a ``ConfigurationError``
/// naming the file and line.
struct ConfigFile: Equatable, Sendable {
    /// The path the file was read from, as given by the operator.
    let path: String
    /// The values by key.
    let values: [SettingKey: SettingValue]

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: ``ConfigurationError`` when the file is missing, unreadable or malformed.
    static func load(path: String, knownKeys: [SettingKey] = SettingKey.configFileKeys) throws -> ConfigFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError.fileNotFound(path: path)
        }
        if isDirectory.boolValue {
            throw ConfigurationError.unreadableFile(path: path, reason: "it is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError.unreadableFile(path: path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError.unreadableFile(path: path, reason: "it is not UTF-8 text")
        }
        return try parse(text, path: path, knownKeys: knownKeys)
    }

    /// Parses config text; `path` is used in error messages only.
    ///
    /// - Throws: ``ConfigurationError`` for a malformed line, an unknown key or a repeated key.
    static func parse(_ text: String, path: String, knownKeys: [SettingKey] = SettingKey.configFileKeys) throws
        -> ConfigFile
    {
        var values: [SettingKey: SettingValue] = [:]
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw ConfigurationError.malformedLine(path: path, line: lineNumber, text: line)
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard let value = Self.value(from: line[line.index(after: colon)...]), !name.isEmpty else {
                throw ConfigurationError.malformedLine(path: path, line: lineNumber, text: line)
            }
            let key = SettingKey(name)
            guard knownKeys.contains(key) else {
                throw ConfigurationError.unknownKey(path: path, line: lineNumber, key: name)
            }
            if case .configFile(_, let firstLine)? = values[key]?.origin {
                throw ConfigurationError.duplicateKey(path: path, line: lineNumber, key: name, firstLine: firstLine)
            }
            values[key] = SettingValue(text: value, origin: .configFile(path: path, line: lineNumber))
        }
        return ConfigFile(path: path, values: values)
    }

    /// The value part of a line: unquoted, trailing comment removed; `nil` when empty or when a
    /// quote is not closed.
    private static func value(from rest: Substring) -> String? {
        let trimmed = rest.trimmingCharacters(in: .whitespaces)
        if let quote = trimmed.first, quote == "\"" || quote == "'" {
            let body = trimmed.dropFirst()
            guard let close = body.firstIndex(of: quote) else { return nil }
            let after = body[body.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard after.isEmpty || after.hasPrefix("#") else { return nil }
            return String(body[..<close])
        }
        var text = trimmed
        if let comment = text.range(of: " #") ?? text.range(of: "\t#") {
            text = String(text[..<comment.lowerBound])
        }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
