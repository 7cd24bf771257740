import Foundation
import LegacyFormats
import Testing

/// Streaming a large property list visits every element once; the memory bound is asserted on a
/// process of its own (storekeepTests, InspectMemoryTests), since tests share this one.
@Suite("PropertyListDocument memory bound", .serialized)
struct PropertyListMemoryTests {
    /// 200,000 small dictionaries: about 40 MB of XML and 25 MB of binary.
    static let writer = """
        import plistlib
        items = [{'id': i, 'name': 'item %d' % i, 'note': 'n' * 100 + str(i)} for i in range(200000)]
        with open('large.xml', 'wb') as f: plistlib.dump({'items': items}, f)
        with open('large.bplist', 'wb') as f: plistlib.dump({'items': items}, f, fmt=plistlib.FMT_BINARY)
        """

    /// A field of /proc/self/status in kB, such as "VmHWM" (Linux only).
    static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }

    /// Resets the peak-RSS mark when the kernel allows it; returns the mark to measure growth from.
    static func baseline() -> Int? {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
        return status("VmHWM")
    }

    @Test(.enabled(if: status("VmHWM") != nil, "no /proc/self/status on this system"))
    func streamingLargeFilesKeepsMemoryFlat() throws {
        let fixture = try PropertyListFixture()
        try fixture.python(Self.writer)
        for name in ["large.xml", "large.bplist"] {
            let document = try PropertyListDocument.open(at: fixture.url(name))
            let before = try #require(Self.baseline())
            let started = Date()
            var seen = 0
            var idSum: Int64 = 0
            try document.forEachElement(atKeyPath: "items") { index, item in
                if case .integer(let id)? = item[key: "id"] { idSum += id }
                seen = index + 1
                return true
            }
            let elapsed = Date().timeIntervalSince(started)
            let growth = try #require(Self.status("VmHWM")) - before
            #expect(seen == 200_000)
            #expect(idSum == 199_999 * 200_000 / 2)
            // Other tests run in this process at the same time, so its peak memory is no measure of
            // this reader: InspectMemoryTests asserts the bound on a process of its own.
            let megabytes = Double(document.fileSize) / 1_048_576
            print("\(name): \(String(format: "%.1f", megabytes)) MB streamed in \(String(format: "%.2f", elapsed)) s (\(String(format: "%.1f", megabytes / elapsed)) MB/s), peak RSS growth \(growth) kB")
        }
    }
}
