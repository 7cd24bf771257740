import Foundation
import LegacyFormats
import ObjectModel

/// A temporary folder for property list tests, with Python's `plistlib` as an independent writer.
final class PropertyListFixture {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("storekeep-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The URL of `name` in the folder.
    func url(_ name: String) -> URL {
        root.appendingPathComponent(name)
    }

    /// Writes `bytes` as `name`.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try Data(bytes).write(to: url(name))
        return url(name)
    }

    /// Writes `text` as `name`.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Array(text.utf8))
    }

    /// Runs `python3 -c script arguments…` in the folder and returns its standard output.
    @discardableResult
    func python(_ script: String, _ arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        process.currentDirectoryURL = root
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonFailed(message: String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }

    struct PythonFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "python3 failed: \(message)" }
    }

    /// The error `body` throws, if it is a ``PropertyListError``.
    static func error(_ body: () throws -> Void) -> PropertyListError? {
        do {
            try body()
            return nil
        } catch let error as PropertyListError {
            return error
        } catch {
            return nil
        }
    }
}

/// A binary plist assembled byte by byte, to make broken files no writer would produce.
struct HandMadeBinaryPlist {
    var objects: [[UInt8]]
    var top: UInt64 = 0
    var offsetOverrides: [Int: UInt64] = [:]
    var objectCountOverride: UInt64?
    /// Bytes per entry of the offset table (objects are referred to with one byte).
    var offsetSize = 1

    /// `bplist00`, the objects, the offset table and the trailer.
    var bytes: [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(out.count))
            out += object
        }
        for (index, offset) in offsetOverrides { offsets[index] = offset }
        let table = UInt64(out.count)
        for offset in offsets { out += Self.bigEndian(offset).suffix(offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1]
        out += Self.bigEndian(objectCountOverride ?? UInt64(objects.count))
        out += Self.bigEndian(top)
        out += Self.bigEndian(table)
        return out
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - UInt64($0)))) }
    }
}
