// swift-tools-version:6.1
import PackageDescription

/// storekeep: an admin utility, and the libraries under it, for synced object stores.
///
/// Layers (dependencies point downward only, see docs/architecture in README):
/// `storekeep` (CLI) → `StoreMaintenance` → `SyncStore`, `SyncContainer`, `LegacyFormats` → `XcodeModel` → `ObjectModel`.
/// An app embeds `SyncStore` with `XcodeModel` (its `.xcdatamodeld`); the rest serves the operator.
/// No unsafe flags: SwiftPM refuses a package that has them as a versioned dependency. The hot
/// classes (a plist reader's page cache, the batch and import writers) mark their stored
/// properties `@exclusivity(unchecked)` instead, which keeps the migration's speed.

let package = Package(
    name: "storekeep",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "storekeep", targets: ["storekeep"]),
        .library(name: "ObjectModel", targets: ["ObjectModel"]),
        .library(name: "XcodeModel", targets: ["XcodeModel"]),
        .library(name: "LegacyFormats", targets: ["LegacyFormats"]),
        .library(name: "SyncStore", targets: ["SyncStore"]),
        .library(name: "SyncContainer", targets: ["SyncContainer"]),
        .library(name: "StoreMaintenance", targets: ["StoreMaintenance"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .target(name: "CSystemCalls", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "ObjectModel", dependencies: ["CLibCrypto", "CSystemCalls"]),
        .target(name: "XcodeModel", dependencies: ["ObjectModel"]),
        .target(
            name: "LegacyFormats",
            dependencies: ["ObjectModel", "XcodeModel", "CZlib", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "SyncStore",
            dependencies: [
                "ObjectModel", "CLibCrypto", "CSystemCalls", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .target(name: "SyncContainer", dependencies: ["ObjectModel", "CZstd", "CArchive", "CSystemCalls"]),
        .target(
            name: "StoreMaintenance",
            dependencies: [
                "ObjectModel", "XcodeModel", "LegacyFormats", "SyncStore", "SyncContainer", "CArchive",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "storekeep",
            dependencies: [
                "StoreMaintenance", "ObjectModel", "XcodeModel", "LegacyFormats", "SyncStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "speechtimer-example",
            dependencies: ["XcodeModel", "SyncStore", "ObjectModel"],
            path: "Examples/SpeechTimerExample"),
        .testTarget(name: "ObjectModelTests", dependencies: ["ObjectModel"]),
        .testTarget(
            name: "LegacyFormatsTests",
            dependencies: ["LegacyFormats", "XcodeModel", "ObjectModel", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "SyncStoreTests",
            dependencies: ["SyncStore", "ObjectModel", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "StoreMaintenanceTests",
            dependencies: ["StoreMaintenance", "SyncStore", "SyncContainer", "ObjectModel", "XcodeModel", "LegacyFormats", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "storekeepTests",
            dependencies: [
                "storekeep", "ObjectModel", "XcodeModel", "SyncStore", "SyncContainer", "StoreMaintenance", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
