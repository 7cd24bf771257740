import Foundation

extension DurableFile {
    /// What can go wrong in a durable write, with the path and the system's reason.
    ///
    /// ```swift
    /// do { try DurableFile.write(bytes, to: path, replacing: false) }
    /// catch let failure as DurableFile.Failure where failure.code == EEXIST { /* published already */ }
    /// ```
    public struct Failure: LocalizedError, CustomStringConvertible, Sendable {
        /// The file concerned.
        public var path: String
        /// What was being done ("write", "rename", …) and the system's reason.
        public var reason: String
        /// The `errno` value, when the system gave one.
        public var code: Int32

        /// A failure of `reason` on `path`, with the system's `code`.
        public init(path: String, reason: String, code: Int32) {
            self.path = path
            self.reason = reason
            self.code = code
        }

        /// `<path>: cannot <reason>`.
        public var description: String { "\(path): cannot \(reason)" }

        /// The same as ``description``, for `localizedDescription`.
        public var errorDescription: String? { description }

        /// Whether the disk (or the user's quota) is full.
        public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
    }
}
