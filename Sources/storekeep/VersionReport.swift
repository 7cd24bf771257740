/// The result of `storekeep version`: the versions of storekeep and of its linked libraries.
///
/// ```json
/// {"libarchive": "3.7.2", "version": "0.1.0"}
/// ```
struct VersionReport: Encodable, Equatable, Sendable {
    /// The storekeep version.
    var version: String
    /// The libarchive version storekeep is linked against (number only, e.g. `3.7.2`).
    var libarchive: String

    /// Creates a report, trimming libarchive's own `libarchive ` prefix from its version string.
    init(version: String, libarchiveVersionString: String) {
        self.version = version
        let prefix = "libarchive "
        libarchive = libarchiveVersionString.hasPrefix(prefix)
            ? String(libarchiveVersionString.dropFirst(prefix.count)) : libarchiveVersionString
    }

    /// The human form: one aligned `name  version` line per component.
    var text: String {
        TextTable(
            columns: [TextTable.Column("component"), TextTable.Column("version")],
            rows: [["storekeep", version], ["libarchive", libarchive]],
            showsHeader: false
        ).render()
    }
}
