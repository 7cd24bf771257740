/// A setting's text as found, with where it was found so that an error can point there.
struct SettingValue: Equatable, Sendable {
    /// Where a setting came from.
    enum Origin: Equatable, Sendable, CustomStringConvertible {
        /// An environment variable.
        case environment(variable: String)
        /// A line of a config file.
        case configFile(path: String, line: Int)

        /// `environment variable STOREKEEP_JSON` or `config file /etc/sk.conf, line 3`.
        var description: String {
            switch self {
            case .environment(let variable): "environment variable \(variable)"
            case .configFile(let path, let line): "config file \(path), line \(line)"
            }
        }
    }

    /// The value, trimmed of spaces and unquoted.
    var text: String
    /// Where the value was found.
    var origin: Origin
}
