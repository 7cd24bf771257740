import ArgumentParser
import ObjectModel
import Testing

@testable import storekeep

/// Unit tests of the one mapping from failures to exit statuses and error documents.
@Suite("failure reports")
struct FailureReportTests {
    /// An error as a library would throw it.
    struct SampleError: OperatorFacingError {
        var failureKind: FailureKind
        var hint: String?
        var description: String { "sample failure" }
    }

    /// An error that is not operator-facing.
    struct UnexpectedError: Error {}

    @Test("each failure kind has its documented status")
    func statuses() {
        let expected: [FailureKind: Int32] = [
            .usage: 64, .badInput: 65, .missingInput: 66, .internalFailure: 70,
            .cannotCreateOutput: 73, .ioFailure: 74, .storeBusy: 75, .badConfiguration: 78,
        ]
        for kind in FailureKind.known {
            #expect(kind.exitStatus == expected[kind], "\(kind)")
        }
        #expect(FailureKind(rawValue: "aKindAddedLater").exitStatus == 70, "a kind the CLI does not know is a software error")
    }

    @Test("an operator-facing error keeps its kind, message and hint")
    func operatorFacing() throws {
        let report = FailureReport(
            error: SampleError(failureKind: .storeBusy, hint: "wait for the other process"), root: Storekeep.self)
        #expect(report.status == 75)
        #expect(report.text == "storekeep: error: sample failure\nhint: wait for the other process")
        let json = try JSONOutput.render(report.document)
        #expect(json.contains(#""kind" : "storeBusy""#))
        #expect(json.contains(#""exitCode" : 75"#))
    }

    @Test("no hint line and no hint field when there is no hint")
    func withoutHint() throws {
        let report = FailureReport(error: SampleError(failureKind: .badInput, hint: nil), root: Storekeep.self)
        #expect(report.text == "storekeep: error: sample failure")
        #expect(!(try JSONOutput.render(report.document)).contains("hint"))
    }

    @Test("a validation error is a usage error; anything else is an internal failure")
    func otherErrors() {
        #expect(FailureReport(error: ValidationError("nope"), root: Storekeep.self).status == 64)
        let unexpected = FailureReport(error: UnexpectedError(), root: Storekeep.self)
        #expect(unexpected.kind == .internalFailure)
        #expect(unexpected.status == 70)
    }
}
