import ObjectModel

/// Something wrong with a container or a file in it, naming the file, with a hint.
public struct ContainerError: OperatorFacingError, Hashable {
    /// Why, as a machine-readable reason; new reasons may be added.
    public struct Reason: RawRepresentable, Hashable, Sendable, Codable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The container folder is missing or not usable.
        public static let unusableContainer = Reason(rawValue: "unusableContainer")
        /// A log file is damaged: truncated, wrong checksum, unreadable header or body.
        public static let damagedLog = Reason(rawValue: "damagedLog")
        /// A log file belongs elsewhere: another content name, model, peer or sequence range than its place says.
        public static let foreignLog = Reason(rawValue: "foreignLog")
        /// A peer's logs leave a gap in its sequence.
        public static let missingLog = Reason(rawValue: "missingLog")
        /// A manifest or another JSON file is unreadable.
        public static let damagedManifest = Reason(rawValue: "damagedManifest")
        /// Reading or writing failed.
        public static let io = Reason(rawValue: "io")
        /// The disk is full.
        public static let diskFull = Reason(rawValue: "diskFull")
        /// An archive is damaged: an entry does not match its checksum, or the file is truncated.
        public static let damagedArchive = Reason(rawValue: "damagedArchive")
        /// A file named on the command line (an archive) does not exist.
        public static let notFound = Reason(rawValue: "notFound")
        /// A file is in the way and `--force` was not given.
        public static let wouldOverwrite = Reason(rawValue: "wouldOverwrite")
    }

    /// The reason.
    public var reason: Reason
    /// The file or folder concerned.
    public var path: String
    /// What is wrong, in one sentence.
    public var message: String
    /// What the operator can do.
    public var hint: String?

    /// Creates the error.
    public init(_ reason: Reason, path: String, message: String, hint: String? = nil) {
        self.reason = reason
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }

    /// The failure kind, which decides the exit code.
    public var failureKind: FailureKind {
        switch reason {
        case .unusableContainer: return .cannotCreateOutput
        case .damagedLog, .foreignLog, .missingLog, .damagedManifest, .damagedArchive: return .badInput
        case .notFound: return .missingInput
        case .wouldOverwrite: return .cannotCreateOutput
        case .diskFull: return .cannotCreateOutput
        default: return .ioFailure
        }
    }

    /// The error for a failed durable write.
    static func writing(_ failure: DurableFile.Failure) -> ContainerError {
        ContainerError(failure.isDiskFull ? .diskFull : .io, path: failure.path, message: "cannot be written: \(failure.reason)",
                       hint: failure.isDiskFull ? "free space where the container lives, then run the same command again" : "check the container's permissions and the disk")
    }
}
