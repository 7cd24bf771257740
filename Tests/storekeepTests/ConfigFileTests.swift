import Testing

@testable import storekeep

/// Unit tests of the `key: value` config file parser.
@Suite("config file parser")
struct ConfigFileTests {
    @Test("comments, blank lines, trailing comments and quotes")
    func acceptedForms() throws {
        let text = """
            # storekeep settings

              log-level:   warning   # quiet at night
            json: "true"
            quiet: 'no # really'
            """
        let file = try ConfigFile.parse(text, path: "s.conf")
        #expect(file.values[.logLevel] == SettingValue(text: "warning", origin: .configFile(path: "s.conf", line: 3)))
        #expect(file.values[.json]?.text == "true")
        #expect(file.values[.quiet]?.text == "no # really")
        #expect(file.values[.verbose] == nil)
    }

    @Test("a line without a colon, an empty value or an unclosed quote is malformed", arguments: [
        "log-level", "log-level:", ": debug", "json: \"true", "json: 'a' b",
    ])
    func malformed(line: String) {
        #expect(throws: ConfigurationError.malformedLine(path: "s.conf", line: 2, text: line)) {
            try ConfigFile.parse("# first\n\(line)\n", path: "s.conf")
        }
    }

    @Test("an unknown key names the line")
    func unknownKey() {
        #expect(throws: ConfigurationError.unknownKey(path: "s.conf", line: 1, key: "log_level")) {
            try ConfigFile.parse("log_level: debug", path: "s.conf")
        }
    }

    @Test("a repeated key names both lines")
    func duplicateKey() {
        #expect(throws: ConfigurationError.duplicateKey(path: "s.conf", line: 3, key: "json", firstLine: 1)) {
            try ConfigFile.parse("json: true\n\njson: false", path: "s.conf")
        }
    }

    @Test("a missing file is a configuration error naming it")
    func missingFile() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ConfigFile.load(path: "/nonexistent/storekeep.conf")
        }
        #expect(error == .fileNotFound(path: "/nonexistent/storekeep.conf"))
        #expect(error.description.contains("/nonexistent/storekeep.conf"))
        #expect(error.failureKind.exitStatus == 78)
    }
}
