import Foundation
import LegacyFormats
import XcodeModel
import ObjectModel
import SyncStore

/// Loads a model version from an Xcode data model on disk: the version asked for, or the current one.
///
/// ```swift
/// let model = try ModelLoader.load(path: "Migrations/SpeechTimer/SpeechTimer.xcdatamodeld", version: nil)
/// model.versionName   // "SpeechTimer 2"
/// ```
public enum ModelLoader {
    /// Reads every version of the model at `path`; a storekeep store at `path` gives the one
    /// version it holds (so that a new peer can be made like an existing one).
    ///
    /// - Throws: `XcodeModelError` naming the file (and line) when it cannot be read; `StoreError`
    ///   for a store that cannot be opened.
    public static func loadBundle(path: String) throws -> ModelBundle {
        if SyncStore.isStore(at: path) {
            let model = try SyncStore.open(at: path, readOnly: true).model
            return ModelBundle(name: model.name, versions: [model], currentVersionName: model.versionName)
        }
        return try XcodeModelReader().readModel(at: URL(fileURLWithPath: path))
    }

    /// Reads the model at `path` and picks `version` (with or without `.xcdatamodel`), or the current version.
    ///
    /// - Throws: `XcodeModelError` for an unreadable model, `ModelLookupError` for an unknown version.
    public static func load(path: String, version: String?) throws -> ManagedModel {
        let bundle = try loadBundle(path: path)
        guard let version else { return bundle.current }
        return try bundle.version(named: version)
    }
}
