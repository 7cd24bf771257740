import Foundation
@testable import LegacyFormats
import Testing

/// The page cache under binary plist reading: every read returns the file's bytes whatever the
/// cache holds, and a working set that fits the cache is read from the file once.
@Suite("PagedFileReader")
struct PagedFileReaderTests {
    /// A file of `count` bytes, byte `i` being `i * 7 + i / 251` (no period of a page size).
    static func file(count: Int) throws -> (PlistFile, [UInt8]) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        let file = try PlistFile(path: url.path)
        try FileManager.default.removeItem(at: url)  // the open descriptor keeps it readable
        return (file, bytes)
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }

    @Test func randomReadsMatchTheFileWithATinyCache() throws {
        let (file, expected) = try Self.file(count: 10_000)
        let reader = PagedFileReader(file: file, pageSize: 64, pageCount: 3)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let size = Int.random(in: 1...8, using: &generator)
            let offset = Int.random(in: 0...(expected.count - size), using: &generator)
            #expect(try reader.unsigned(at: Int64(offset), size: size) == Self.bigEndian(expected[offset..<(offset + size)]))
            let count = Int.random(in: 0...300, using: &generator)
            let start = Int.random(in: 0...(expected.count - count), using: &generator)
            #expect(try reader.bytes(at: Int64(start), count: count) == Array(expected[start..<(start + count)]))
        }
    }

    @Test func aWorkingSetThatFitsIsReadOnce() throws {
        let (file, expected) = try Self.file(count: 64 * 100)
        let reader = PagedFileReader(file: file, pageSize: 64, pageCount: 8)
        let pages = [3, 50, 7, 99, 20, 61, 0, 42]
        for _ in 0..<20 {
            for page in pages {
                #expect(try reader.byte(at: Int64(page * 64 + 5)) == expected[page * 64 + 5])
            }
        }
        #expect(reader.pagesRead == pages.count)
    }

    @Test func aScanLargerThanTheCacheKeepsRecentPages() throws {
        let (file, expected) = try Self.file(count: 64 * 100)
        let reader = PagedFileReader(file: file, pageSize: 64, pageCount: 8)
        for page in 0..<100 { _ = try reader.byte(at: Int64(page * 64)) }
        #expect(reader.pagesRead == 100)
        #expect(try reader.bytes(at: 99 * 64, count: 64) == Array(expected[(99 * 64)...]))
        #expect(reader.pagesRead == 100)
    }

    @Test func readsAfterReleasingTheMemoryStartAfresh() throws {
        let (file, expected) = try Self.file(count: 64 * 20)
        let reader = PagedFileReader(file: file, pageSize: 64, pageCount: 4)
        for page in [1, 2, 3] { #expect(try reader.byte(at: Int64(page * 64)) == expected[page * 64]) }
        reader.releaseMemory()
        reader.releaseMemory()
        #expect(try reader.bytes(at: 64, count: 192) == Array(expected[64..<256]))
        #expect(reader.pagesRead == 6, "released pages are read from the file again")
        for page in 0..<20 { #expect(try reader.unsigned(at: Int64(page * 64 + 3), size: 4) == Self.bigEndian(expected[(page * 64 + 3)..<(page * 64 + 7)])) }
    }

    @Test func readingPastTheEndFails() throws {
        let (file, expected) = try Self.file(count: 1_000)
        let reader = PagedFileReader(file: file, pageSize: 64, pageCount: 2)
        #expect(throws: PropertyListError.self) { try reader.bytes(at: 990, count: 20) }
        #expect(throws: PropertyListError.self) { try reader.unsigned(at: 996, size: 8) }
        #expect(throws: PropertyListError.self) { try reader.unsigned(at: -1, size: 1) }
        #expect(throws: PropertyListError.self) { try reader.bytes(at: -5, count: 4) }
        #expect(try reader.unsigned(at: 992, size: 8) == Self.bigEndian(expected[992...]))
    }
}
