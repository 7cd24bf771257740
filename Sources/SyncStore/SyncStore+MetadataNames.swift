import ObjectModel

extension SyncStore {
    /// The names in a store's `sk_metadata` (key → value) that could not be the folder or file
    /// name storekeep makes of them, each with its key and what is wrong, in key order: the
    /// content name and peer ID name folders of a container (``SyncName``'s rule), the model hash
    /// a namespace folder (64 lowercase hex
    /// digits), a seed configuration a file beside the store (no `/`, no `..`). Keys not given are
    /// not checked.
    ///
    /// ```swift
    /// SyncStore.unusableMetadataNames(["peerID": "../../x"]).first?.problem
    /// // "peerID is ../../x, which a container cannot use as a folder name (use 1 to 200 …)"
    /// ```
    public static func unusableMetadataNames(_ values: [String: String]) -> [(key: String, problem: String)] {
        var wrong: [(key: String, problem: String)] = []
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if key == "contentName" || key == "peerID", !isUsableName(value) {
                wrong.append((key, "\(key) is \(value.shownInMessage), which a container cannot use as a folder name (\(SyncName.rule))"))
            } else if key == "modelHash", value.utf8.count != 64 || !value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) {
                wrong.append((key, "modelHash is \(value.shownInMessage), not 64 lowercase hex digits"))
            } else if key == seedConfigurationKey, let reason = value.unusableNameReason ?? value.unusableFileNamePartReason {
                wrong.append((key, "\(key) \(value.shownInMessage) \(reason)"))
            }
        }
        return wrong
    }
}
