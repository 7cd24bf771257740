import Foundation
import SyncStore

extension MigrationSource {
    /// No files by default.
    public var appliedFiles: [MigrationFile] { [] }
}

extension PropertyListMappingSource {
    /// The mapping file, by absolute path.
    public var appliedFiles: [MigrationFile] {
        [MigrationFile(path: URL(fileURLWithPath: mapping.path).standardizedFileURL.path, checksum: mapping.checksum)]
    }
}

extension CoreDataMigrationSource {
    /// The step files and mapping models of the chain, by absolute path (none when every step is
    /// inferred, or without a bundle).
    public var appliedFiles: [MigrationFile] {
        (chain?.stepFiles ?? []).map { MigrationFile(path: URL(fileURLWithPath: $0.path).standardizedFileURL.path, checksum: $0.checksum) }
    }
}

extension StoreMigrationSource {
    /// The step files and mapping models of the chain, by absolute path (none when every step is inferred).
    public var appliedFiles: [MigrationFile] {
        chain.stepFiles.map { MigrationFile(path: URL(fileURLWithPath: $0.path).standardizedFileURL.path, checksum: $0.checksum) }
    }
}
