import Foundation

/// What a caller asks to migrate from: a source file and the files that describe it. ``open()``
/// recognises the source from its content and makes the ``MigrationSource`` that reads it, so that
/// no caller has to know which kinds exist or which files each one needs.
///
/// ```swift
/// let request = MigrationSourceRequest(source: "data.plist", mapping: "speechtimer.mapping.yaml")
/// let opened = try request.open()
/// let migrator = Migrator(source: opened.source, target: "new.store",
///                         options: MigrationOptions(contentName: opened.defaultContentName))
/// ```
public struct MigrationSourceRequest: Sendable {
    /// The source file: a property list, an Apple Core Data store or a storekeep store.
    public var source: String
    /// The mapping file (a property list needs one).
    public var mapping: String?
    /// The model: instead of the mapping's for a property list; the app's bundle for a Core Data
    /// store; the bundle of the source and target versions for a storekeep store (required).
    public var model: String?
    /// For a Core Data store, the version it was written with (default: found by its version
    /// hashes); for a storekeep store, the target version.
    public var modelVersion: String?
    /// The version to migrate to (default: the bundle's current version).
    public var targetVersion: String?
    /// A folder of step files to use instead of the bundle's folder.
    public var stepsFolder: String?

    /// Creates a request.
    public init(source: String, mapping: String? = nil, model: String? = nil, modelVersion: String? = nil,
                targetVersion: String? = nil, stepsFolder: String? = nil) {
        self.source = source
        self.mapping = mapping
        self.model = model
        self.modelVersion = modelVersion
        self.targetVersion = targetVersion
        self.stepsFolder = stepsFolder
    }

    /// A source opened for migration.
    public struct Opened {
        /// What the source is.
        public var kind: SourceKind
        /// The reader the ``Migrator`` runs.
        public var source: any MigrationSource
        /// The content name a new target takes when none is given (a storekeep store's own).
        public var defaultContentName: String?
    }

    /// Recognises the source and opens it with the files its kind needs.
    ///
    /// - Throws: ``MaintenanceError`` `usage` when the request lacks what the source's kind needs
    ///   (a property list without a mapping, a storekeep store without a model) or gives what it
    ///   cannot use; `badInput` for a file storekeep cannot migrate; the readers' errors.
    public func open() throws -> Opened {
        let kind = try SourceKind.detect(path: source)
        switch kind {
        case .binaryPropertyList, .xmlPropertyList:
            guard let mapping else {
                throw usage("is \(kind.description); a property list needs --mapping FILE",
                            hint: "write a mapping for it (docs/mapping.md), starting from `storekeep inspect \(source)`")
            }
            return Opened(kind: kind, source: try PropertyListMappingSource(plist: source, mapping: MappingFileReader.read(path: mapping), model: model))
        case .coreDataStore:
            if let model {
                return Opened(kind: kind, source: try CoreDataMigrationSource(path: source, bundlePath: model, versionOverride: modelVersion,
                                                                              targetVersion: targetVersion, stepsFolder: stepsFolder))
            }
            guard modelVersion == nil else {
                throw usage("--model-version needs --model (the app's .xcdatamodeld bundle)", hint: "give --model BUNDLE, or leave --model-version out")
            }
            return Opened(kind: kind, source: try CoreDataMigrationSource(path: source, managedModel: nil))
        case .storekeepStore:
            guard let model else {
                throw usage("is \(kind.description); migrating it needs --model BUNDLE",
                            hint: "give the .xcdatamodeld holding its version and the target version (docs/steps.md)")
            }
            guard mapping == nil else {
                throw usage("is \(kind.description); --mapping is for property lists",
                            hint: "leave --mapping out: a store's steps are inferred or read from step files (docs/steps.md)")
            }
            if let modelVersion, let targetVersion, modelVersion != targetVersion {
                throw usage("for a storekeep store --model-version names the target version; --target-version names another (\(targetVersion))",
                            hint: "give one of them")
            }
            let store = try StoreMigrationSource(path: source, model: model, modelVersion: targetVersion ?? modelVersion, stepsFolder: stepsFolder)
            return Opened(kind: kind, source: store, defaultContentName: store.contentName)
        case .unknown(let words):
            throw MaintenanceError(path: source, problem: "is not a source storekeep can migrate: it looks like \(words)",
                                   hint: "give a property list (with --mapping) or an Apple Core Data store", failureKind: .badInput)
        }
    }

    private func usage(_ problem: String, hint: String) -> MaintenanceError {
        MaintenanceError(path: source, problem: problem, hint: hint, failureKind: .usage)
    }
}
