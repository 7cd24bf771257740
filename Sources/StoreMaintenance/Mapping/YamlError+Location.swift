import Yams

extension YamlError {
    /// The line (1-based) where libyaml stopped, when it says.
    var line: Int? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return nil
        }
    }

    /// What libyaml found wrong, in its own words, without the snippet it appends.
    var problemText: String {
        switch self {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): return problem
        case .duplicatedKeysInMapping(let duplicates, _): return "duplicate keys: \(duplicates.joined(separator: ", "))"
        default: return "\(self)"
        }
    }
}
