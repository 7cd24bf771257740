import ObjectModel

/// A setting that storekeep cannot use: a missing or malformed config file, an unknown key, or
/// a value of the wrong kind. Always exit status 78 (`badConfiguration`).
enum ConfigurationError: OperatorFacingError, Equatable {
    /// The config file does not exist.
    case fileNotFound(path: String)
    /// The config file exists but cannot be read as UTF-8 text.
    case unreadableFile(path: String, reason: String)
    /// A line is neither blank, a comment, nor `key: value`.
    case malformedLine(path: String, line: Int, text: String)
    /// A key that storekeep does not know.
    case unknownKey(path: String, line: Int, key: String)
    /// A key given twice in the same file.
    case duplicateKey(path: String, line: Int, key: String, firstLine: Int)
    /// A value that is not of the expected kind.
    case invalidValue(origin: SettingValue.Origin, value: String, expected: String)
    /// Two settings from the same place that contradict each other.
    case conflict(origin: String, first: SettingKey, second: SettingKey)

    /// Always ``FailureKind/badConfiguration``.
    var failureKind: FailureKind { .badConfiguration }

    /// What is wrong, naming the file and line or the variable.
    var description: String {
        switch self {
        case .fileNotFound(let path):
            "config file \(path) does not exist"
        case .unreadableFile(let path, let reason):
            "config file \(path) cannot be read: \(reason)"
        case .malformedLine(let path, let line, let text):
            "config file \(path), line \(line): expected 'key: value', found '\(text)'"
        case .unknownKey(let path, let line, let key):
            "config file \(path), line \(line): unknown key '\(key)'"
        case .duplicateKey(let path, let line, let key, let firstLine):
            "config file \(path), line \(line): key '\(key)' was already set on line \(firstLine)"
        case .invalidValue(let origin, let value, let expected):
            "\(origin): '\(value)' is not \(expected)"
        case .conflict(let origin, let first, let second):
            "\(origin): '\(first)' and '\(second)' cannot both be set"
        }
    }

    /// What to do about it.
    var hint: String? {
        switch self {
        case .fileNotFound:
            "check the path given with --config or STOREKEEP_CONFIG"
        case .unreadableFile:
            "the config file must be readable UTF-8 text"
        case .malformedLine:
            "each line is 'key: value', blank, or a comment starting with '#'"
        case .unknownKey:
            "known keys: " + SettingKey.configFileKeys.map(\.name).sorted().joined(separator: ", ")
        case .duplicateKey:
            "remove one of the two lines"
        case .invalidValue(.environment(let variable), _, let expected):
            "set \(variable) to \(expected), or unset it"
        case .invalidValue(.configFile, _, let expected):
            "give the key \(expected), or remove the line"
        case .conflict:
            "set only one of them"
        }
    }
}
