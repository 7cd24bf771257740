import Foundation
import ObjectModel

/// The files of a store's blob folder: blob files by digest, and anything else found there.
struct BlobFolderListing {
    /// A file found in the folder.
    struct File {
        /// Its path.
        var path: String
        /// When it was last modified.
        var modified: Date
        /// Whether it is a blob being written (`.<hex>.<pid>.<random>.tmp`, ``DurableFile``'s temporary name) by a process that still runs.
        var isTemporaryOfLiveProcess: Bool
    }

    /// Files named `<2 hex>/<64 hex>` with matching prefix, by digest.
    private(set) var blobs: [String: File] = [:]
    /// Every other file under the folder.
    private(set) var strays: [File] = []

    /// Lists `folder` and its sub-folders (empty when it does not exist).
    init(folder: URL) {
        for top in Self.entries(of: folder) {
            guard top.isDirectory else {
                strays.append(Self.file(top))
                continue
            }
            for entry in Self.entries(of: top.url) where !entry.isDirectory {
                let name = entry.url.lastPathComponent
                let isHex = name.count == 64 && name.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
                // A link (or a special file) is no blob storekeep wrote, whatever its name: it is
                // a stray, and is never followed.
                if isHex && entry.isRegularFile && top.url.lastPathComponent == String(name.prefix(2)) {
                    blobs[name] = Self.file(entry)
                } else {
                    strays.append(Self.file(entry))
                }
            }
        }
    }

    private struct Entry {
        var url: URL
        var isDirectory: Bool
        var isRegularFile: Bool
        var modified: Date
    }

    private static func entries(of folder: URL) -> [Entry] {
        // Resource values describe a link itself, not what it points at (`lstat`).
        let keys: [URLResourceKey] = [.isDirectoryKey, .isRegularFileKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? []
        return urls.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return Entry(url: url, isDirectory: values?.isDirectory ?? false, isRegularFile: values?.isRegularFile ?? false,
                         modified: values?.contentModificationDate ?? .distantPast)
        }
    }

    private static func file(_ entry: Entry) -> File {
        File(path: entry.url.path, modified: entry.modified,
             isTemporaryOfLiveProcess: DurableFile.isTemporaryOfLiveProcess(entry.url.lastPathComponent))
    }
}
