import Foundation
import ObjectModel
import SyncStore

/// What a migration source is, recognised from its content (never from its name).
public enum SourceKind: Equatable, Sendable {
    /// A binary property list (`bplist00`).
    case binaryPropertyList
    /// An XML property list.
    case xmlPropertyList
    /// An Apple Core Data SQLite store (it has `Z_METADATA`).
    case coreDataStore
    /// A storekeep store (it has storekeep's tables).
    case storekeepStore
    /// Something else, described in a few words ("a SQLite database without Core Data's tables").
    case unknown(String)

    /// Looks at the file at `path` without writing anything beside it.
    ///
    /// - Throws: ``MaintenanceError`` (`missingInput`) when the file does not exist or cannot be read.
    public static func detect(path: String) throws -> SourceKind {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw MaintenanceError(path: path, problem: exists ? "cannot read the source" : "no such file",
                                   hint: "check the path and permissions", failureKind: .missingInput)
        }
        try? handle.close()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return .unknown("a folder, not a file") }
        let head = FileContent.firstBytes(of: path)
        if head.starts(with: Array("bplist00".utf8)) { return .binaryPropertyList }
        if FileContent.isSQLite(head) { return try sqliteKind(path: path) }
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("<?xml") || text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist") {
            return text.contains("<plist") || text.contains("PropertyList") ? .xmlPropertyList : .unknown("an XML document that is not a property list")
        }
        if head.starts(with: Array("bplist".utf8)) { return .unknown("a binary property list of an unknown version") }
        return .unknown(FileContent.describe(head))
    }

    /// Tells a storekeep store from a Core Data store from another SQLite file, opening the file
    /// as immutable so that nothing (no journal, no shared-memory file) is written beside it.
    private static func sqliteKind(path: String) throws -> SourceKind {
        do {
            return try StoreInspector(path: path, access: .immutable).inspect { file in
                if try file.isStore() { return .storekeepStore }
                if try file.tableExists("Z_METADATA") && file.tableExists("Z_PRIMARYKEY") { return .coreDataStore }
                return .unknown("a SQLite database that is neither a Core Data store nor a storekeep store")
            }
        } catch {
            return .unknown("a damaged SQLite database (\(error))")
        }
    }

    /// A few words naming the kind.
    public var description: String {
        switch self {
        case .binaryPropertyList: return "a binary property list"
        case .xmlPropertyList: return "an XML property list"
        case .coreDataStore: return "an Apple Core Data store"
        case .storekeepStore: return "a storekeep store"
        case .unknown(let words): return words
        }
    }
}
