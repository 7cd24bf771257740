import Foundation

/// What an entry of a store's blob folder is, told by `lstat`: a symbolic link is a link, never
/// what it points at, so that nothing storekeep does to the folder (a backup, a read, a removal)
/// follows a link out of the store's folder.
enum BlobFolderEntryKind: Equatable, CustomStringConvertible {
    /// A regular file.
    case file
    /// A real folder.
    case folder
    /// A symbolic link, wherever it points.
    case link
    /// A device, a socket, a FIFO.
    case other

    /// The kind of the entry at `path`, or `nil` when there is none.
    init?(at path: String) {
        var facts = stat()
        guard lstat(path, &facts) == 0 else { return nil }
        switch facts.st_mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .folder
        case S_IFLNK: self = .link
        default: self = .other
        }
    }

    /// "a symbolic link", for messages.
    var description: String {
        switch self {
        case .file: return "a regular file"
        case .folder: return "a folder"
        case .link: return "a symbolic link"
        case .other: return "a special file (device, socket or pipe)"
        }
    }
}
