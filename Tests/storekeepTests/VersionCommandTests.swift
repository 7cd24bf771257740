import Foundation
import Testing

/// End-to-end tests of `storekeep version` through the built binary.
@Suite("storekeep version")
struct VersionCommandTests {
    @Test("--json prints one document with the version and the libarchive version")
    func jsonDocument() throws {
        let result = try StorekeepProcess.run(["version", "--json"])
        #expect(result.status == 0, "\(result)")
        let document = try result.jsonObject()
        let version = try #require(document["version"] as? String)
        let libarchive = try #require(document["libarchive"] as? String)
        #expect(version.split(separator: ".").count == 3)
        #expect(libarchive.first?.isNumber == true, "libarchive version is a number: \(libarchive)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("text output lists storekeep and libarchive in aligned columns")
    func textOutput() throws {
        let result = try StorekeepProcess.run(["version"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("storekeep ") == true)
        #expect(lines.last?.hasPrefix("libarchive ") == true)
        let columns = lines.map { line in line.distance(from: line.startIndex, to: line.lastIndex(of: " ") ?? line.endIndex) }
        #expect(Set(columns).count == 1, "values start in the same column: \(lines)")
    }

    @Test("--version on the root prints the same version as the version command")
    func rootVersionFlag() throws {
        let flag = try StorekeepProcess.run(["--version"])
        let document = try StorekeepProcess.run(["version", "--json"]).jsonObject()
        #expect(flag.status == 0)
        #expect(flag.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == document["version"] as? String)
    }
}
