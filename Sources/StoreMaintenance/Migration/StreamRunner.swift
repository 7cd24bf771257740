import Foundation
import SyncStore

/// Reads one stream into the store in batches, each committed with its checkpoint by a
/// ``BatchCommitter`` while the next batch is read.
///
/// The checkpoints it hands over carry the digests of copies, not of records: the committer adds
/// each batch's record digests (``BatchCommitter/Batch/checkpoint``).
struct StreamRunner {
    let stream: any MigrationStream
    let load: BulkLoad
    let options: MigrationOptions
    let committer: BatchCommitter
    /// Where the stream stands (what the store has committed, plus the open batch).
    var checkpoint: MigrationCheckpoint
    /// Items handled in this run.
    private(set) var handledThisRun = 0
    /// Asked before each batch is handed over: `true` stops the run with ``Abandoned``.
    var abandonWhen: () -> Bool = { false }

    /// Thrown when ``abandonWhen`` says the run is to stop (the check of the whole source failed).
    struct Abandoned: Error {}

    init(stream: any MigrationStream, load: BulkLoad, options: MigrationOptions, committer: BatchCommitter, checkpoint: MigrationCheckpoint) {
        self.stream = stream
        self.load = load
        self.options = options
        self.committer = committer
        self.checkpoint = checkpoint
    }

    /// Runs the stream to its end, or to the first rejected record under `--on-error stop`, which it
    /// returns. The last batch is handed to the committer, not necessarily committed yet.
    mutating func run(progress: (_ done: Int, _ handledThisRun: Int) -> Void) throws -> MigrationRejection? {
        var batch: [ImportRecord] = []
        var rejections: [MigrationRejection] = []
        var bytes = 0
        var committed = checkpoint
        var stopped: MigrationRejection?
        let load = self.load, store = load.store
        let options = self.options
        let committer = self.committer
        let entity = stream.entity
        let streamName = stream.name
        // Called before every hand-over (a batch of records, a copy) and at the end: the one place
        // that asks whether to stop.
        func flush(_ runner: inout StreamRunner) throws {
            if runner.abandonWhen() { throw Abandoned() }
            guard runner.checkpoint.position != committed.position else { return }
            try committer.submit(BatchCommitter.Batch(records: batch, rejections: rejections, checkpoint: runner.checkpoint))
            committed = runner.checkpoint
            batch = []
            batch.reserveCapacity(options.batchSize)
            rejections.removeAll()
            bytes = 0
            progress(runner.checkpoint.rows + runner.checkpoint.rejected, runner.handledThisRun)
        }
        var runner = self
        try stream.forEach(after: checkpoint.position, into: load, options: options) { item in
            switch item {
            case .copied(let position, let copy, let digest):
                // Records handed over before it are committed first: batches commit in source order.
                try flush(&runner)
                runner.checkpoint.position = position
                runner.checkpoint.rows += copy.rows
                runner.checkpoint.digest.add(digest)
                runner.handledThisRun += copy.rows
                try committer.submit(BatchCommitter.Batch(copy: copy, checkpoint: runner.checkpoint))
                committed = runner.checkpoint
                progress(runner.checkpoint.rows + runner.checkpoint.rejected, runner.handledThisRun)
                return true
            case .record(let position, let record):
                if let problem = store.problem(with: record) {
                    let rejection = MigrationRejection(stream: streamName, position: position, entity: entity, reason: problem)
                    if options.onError == .stop { stopped = rejection; return false }
                    rejections.append(rejection)
                    runner.checkpoint.rejected += 1
                } else {
                    // Its line digest is added by the committer (BatchCommitter), off this thread.
                    batch.append(record)
                    runner.checkpoint.rows += 1
                    bytes += Self.approximateSize(of: record)
                }
                runner.checkpoint.position = position
            case .rejected(let position, let reason):
                let rejection = MigrationRejection(stream: streamName, position: position, entity: entity, reason: reason)
                if options.onError == .stop { stopped = rejection; return false }
                rejections.append(rejection)
                runner.checkpoint.rejected += 1
                runner.checkpoint.position = position
            }
            runner.handledThisRun += 1
            if batch.count + rejections.count >= options.batchSize || bytes >= options.batchBytes {
                try flush(&runner)
            }
            return true
        }
        try flush(&runner)
        self = runner
        return stopped
    }

    private static func approximateSize(of record: ImportRecord) -> Int {
        var size = 64
        for (_, value) in record.values {
            switch value {
            case .binary(let data): size += data.count
            case .string(let text), .decimal(let text), .uri(let text): size += text.utf8.count
            default: size += 8
            }
        }
        return size
    }
}
