/// XcodeModel: reads an app's Xcode data model (`.xcdatamodeld` bundles and `.xcdatamodel`
/// versions) into ``ObjectModel`` models, and computes the entity version hashes Core Data writes
/// into a store's metadata. An app that opens its synced store with its own model imports this
/// and `SyncStore`, nothing of the operator's maintenance layer.
///
/// ```swift
/// let bundle = try XcodeModelReader().readModel(at: URL(fileURLWithPath: "SpeechTimer.xcdatamodeld"))
/// let store = try SyncStore.create(at: path, model: bundle.current)
/// ```
public enum XcodeModel {}
