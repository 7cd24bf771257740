import Foundation
import Testing
import ObjectModel

/// `BackgroundWork.wait()` returns once the work's thread has ended: nothing it captured is still
/// held by a running thread when an error goes up and the process exits (a digest thread still
/// hashing at exit crashed `migrate` on a full disk).
@Suite struct BackgroundWorkTests {
    /// Set when the object the work captured is released.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var set = false
        func raise() { lock.withLock { set = true } }
        var isRaised: Bool { lock.withLock { set } }
    }

    private final class Captured: @unchecked Sendable {
        let flag: Flag
        init(_ flag: Flag) { self.flag = flag }
        deinit { flag.raise() }
    }

    private struct Failure: Error {}

    private func start(_ flag: Flag, failing: Bool) -> BackgroundWork<Int> {
        let captured = Captured(flag)
        return BackgroundWork(name: "storekeep.test") {
            withExtendedLifetime(captured) {}
            if failing { throw Failure() }
            return 7
        }
    }

    @Test func waitReturnsAfterTheThreadHasLetGoOfItsWork() throws {
        for round in 0..<200 {
            let flag = Flag()
            let work = start(flag, failing: round % 2 == 1)
            let outcome = Result { try work.wait() }
            #expect(flag.isRaised, "round \(round): the work's captures were still held after wait()")
            if round % 2 == 1 {
                #expect(throws: Failure.self) { try outcome.get() }
                #expect(work.hasFailed)
            } else {
                #expect(try outcome.get() == 7)
            }
        }
    }
}
