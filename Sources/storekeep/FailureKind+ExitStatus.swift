import ObjectModel

extension FailureKind {
    /// The documented exit status for this kind of failure (sysexits-style; see docs/exit-codes.md).
    ///
    /// This is the one place where a failure kind becomes a number.
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
        }
    }
}
