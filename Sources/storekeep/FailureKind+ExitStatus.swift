import ObjectModel

extension FailureKind {
    /// The documented exit status for this kind of failure (sysexits-style; see docs/exit-codes.md).
    ///
    /// This is the one place where a failure kind becomes a number. A kind this version of the
    /// CLI does not know (a library newer than the CLI) is a software error, 70.
    var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .badInput: 65
        case .missingInput: 66
        case .internalFailure: 70
        case .cannotCreateOutput: 73
        case .ioFailure: 74
        case .storeBusy: 75
        case .badConfiguration: 78
        default: 70
        }
    }
}
