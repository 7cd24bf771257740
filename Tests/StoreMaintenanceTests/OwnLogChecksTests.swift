import Foundation
import Testing
@testable import StoreMaintenance

/// When `sync` trusts an own log it read whole before: the same identity, within a week, by a
/// clock that did not go back; a note it cannot read trusts nothing.
@Suite struct OwnLogChecksTests {
    let path = "/container/A/logs/00000000000000000001-00000000000000000002.sklog"
    let checkedAt = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a log is trusted only with the identity it was read with, for less than a week, and never before it was read")
    func trustNeedsTheSameFileAndARecentCheck() throws {
        var checks = OwnLogChecks(note: nil)
        #expect(!checks.isKnownSound(path, identity: "1:2:300:4.5:6.7", now: checkedAt))
        checks.recordSound(path, identity: "1:2:300:4.5:6.7", now: checkedAt)
        #expect(checks.changed)
        let kept = OwnLogChecks(note: try checks.note())
        #expect(kept.isKnownSound(path, identity: "1:2:300:4.5:6.7", now: checkedAt.addingTimeInterval(6 * 24 * 3600)))
        #expect(!kept.isKnownSound(path, identity: "1:2:300:4.5:6.8", now: checkedAt), "written since")
        #expect(!kept.isKnownSound(path, identity: "1:2:300:4.5:6.7", now: checkedAt.addingTimeInterval(OwnLogChecks.recheckAfter)), "a week old")
        #expect(!kept.isKnownSound(path, identity: "1:2:300:4.5:6.7", now: checkedAt.addingTimeInterval(-60)), "the clock went back")
        #expect(!kept.isKnownSound(path + "x", identity: "1:2:300:4.5:6.7", now: checkedAt))
    }

    @Test("a note that is not one trusts nothing; logs no longer checked are forgotten")
    func unreadableNoteAndForgetting() throws {
        for note in ["", "not json", "[1,2]", #"{"\#(path)":{"identity":7}}"#] {
            #expect(!OwnLogChecks(note: note).isKnownSound(path, identity: "7", now: checkedAt), "\(note)")
        }
        var checks = OwnLogChecks(note: nil)
        checks.recordSound(path, identity: "a", now: checkedAt)
        checks.recordSound(path + "2", identity: "b", now: checkedAt)
        var reread = OwnLogChecks(note: try checks.note())
        #expect(!reread.changed)
        reread.keepOnly([path + "2"])
        #expect(reread.changed)
        let kept = OwnLogChecks(note: try reread.note())
        #expect(!kept.isKnownSound(path, identity: "a", now: checkedAt))
        #expect(kept.isKnownSound(path + "2", identity: "b", now: checkedAt))
        reread.keepOnly([])
        #expect(try reread.note() == nil)
    }
}
