import CArchive

/// StoreMaintenance: the jobs operators run on stores, and the reports they produce.
public enum StoreMaintenance {
    /// The version of libarchive storekeep was linked against.
    public static var archiveLibraryVersion: String { String(cString: archive_version_string()) }
}
