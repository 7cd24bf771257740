import ObjectModel
import SyncStore

/// A source a migration reads: what it is, the model it produces records for, and its streams.
public protocol MigrationSource {
    /// The kind of source, in a few words ("binary property list with mapping speechtimer1-plist").
    var kindDescription: String { get }
    /// The source as given on the command line.
    var location: String { get }
    /// The model version the records are for (the target store's model).
    var targetModel: ManagedModel { get }
    /// Where the source's own model came from, when that is worth saying ("model inferred from …").
    var modelNote: String? { get }
    /// What identifies this source's content (a fingerprint; equal for an unchanged source).
    var fingerprint: String { get }
    /// The checksum of the mapping or step files applied ("-" when none).
    var checksum: String { get }
    /// The mapping or step files applied, by absolute path, recorded with the run for `check`.
    var appliedFiles: [MigrationFile] { get }
    /// The streams, in the order they must run (targets of lookups first).
    var streams: [any MigrationStream] { get }
    /// What the source holds, counted part by part without the streams (``SourceTally``): a
    /// completed run checks that the streams read (wrote or rejected) exactly that many items,
    /// so that nothing a stream skips goes unnoticed. Taken after the streams have run.
    func tallies() throws -> [SourceTally]
    /// Checks the source before anything is written (for example the values a mapping requires):
    /// quick checks, not a read of the whole source.
    func validate() throws
    /// A check of the whole source that reads all of it (every object of a property list), made
    /// ready on the calling thread and safe to run on another one while the streams are read;
    /// `nil` when ``validate()`` covers everything. A migration into a new target runs it beside the
    /// load and removes the target when it fails; one into an existing target runs it first.
    ///
    /// With `besideTheLoad`, the check may leave out what the streams check as they read it (an
    /// XML property list's mapped arrays): a stream error that ``isDamage(_:)`` calls damage then
    /// fails the run as the check would have, and removes the new target too.
    func wholeSourceCheck(besideTheLoad: Bool) throws -> (@Sendable () throws -> Void)?
    /// Whether `error`, thrown while the streams read, says that the source is damaged (what the
    /// whole-source check refuses), rather than that the run failed (a full disk, a lock).
    func isDamage(_ error: any Error) -> Bool
    /// A SQLite file the store may attach to copy records from it with SQL (``MigrationItem/copied(position:_:digest:)``),
    /// or `nil` when the source's streams yield records one by one.
    var copySourcePath: String? { get }
    /// Called once every stream has been read: gives back memory kept for reading, so that the
    /// work after it (index builds, verification) has it.
    func finishReading()
    /// The stored data the source holds that the migration does not carry to its target (only
    /// what holds values), found before anything is written: a step's dropped attributes,
    /// relationships and entities (``DroppedData``).
    func droppedData() throws -> [DroppedData]
    /// The storekeep model version hashes the source's content was kept under before (an older
    /// storekeep store's own, and those it was migrated from), recorded in the target so that
    /// `sync` can tell which of two model versions is the newer one.
    var sourceModelHashes: [String] { get }
}

extension MigrationSource {
    /// Sources whose streams yield records one by one have no copy source.
    public var copySourcePath: String? { nil }

    /// Sources that ``MigrationSource/validate()`` checks whole have no separate check.
    public func wholeSourceCheck(besideTheLoad: Bool) throws -> (@Sendable () throws -> Void)? { nil }

    /// Sources without a whole-source check leave no damage to their streams to find.
    public func isDamage(_ error: any Error) -> Bool { false }

    /// Sources that keep nothing worth giving back do nothing.
    public func finishReading() {}

    /// Sources without steps between model versions drop nothing they hold.
    public func droppedData() throws -> [DroppedData] { [] }
    /// Sources that are not storekeep stores carry no model version hash of storekeep's.
    public var sourceModelHashes: [String] { [] }
}
