import Foundation

extension SyncNamespace {
    /// The header of one of `peer`'s logs, read without its body (nothing is checked but the
    /// signature): what a peer's newest log says about it (its account) without reading the log.
    public func logHeader(_ name: LogName, of peer: String) -> LogHeader? {
        FramedFile.header(signature: LogFile.magic, as: LogHeader.self) { try? storage.read(logPath(name, of: peer), limit: $0) }
    }
}
