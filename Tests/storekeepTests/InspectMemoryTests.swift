import Foundation
import Testing

/// `storekeep inspect` on a property list with a 10 MB dictionary key: the output and the memory
/// stay bounded (the key is kept and shown as its start, length and hash). A resource assertion
/// (peak resident memory of the child, from its own `/proc/PID/status`), not a timing one.
@Suite("storekeep inspect: bounded output and memory")
struct InspectMemoryTests {
    /// What one run of the binary used: its status, stdout, and peak resident memory in bytes.
    struct Usage {
        var status: Int32
        var stdout: Data
        var peakResidentBytes: Int
    }

    /// Runs the built binary with `arguments`, stdout to a file, and follows its peak resident set
    /// size (`VmHWM` of `/proc/PID/status`) until it exits.
    ///
    /// Not `ru_maxrss` from `wait4`: a child spawned with `vfork` semantics carries the peak of the
    /// parent's memory into its own at `exec`, so the figure would be the test process's (which
    /// runs other tests beside this one), not the child's.
    static func measure(_ arguments: [String], in directory: TemporaryDirectory) throws -> Usage {
        let binary = try StorekeepProcess.binaryURL().path
        let output = directory.url.appendingPathComponent("stdout-\(UUID().uuidString)").path
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables: [String] = ["PATH=/usr/bin:/bin", "HOME=" + NSHomeDirectory()]
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environment)
        guard spawned == 0 else { throw StorekeepProcess.HarnessError(description: "posix_spawn failed: \(spawned)") }
        var status: Int32 = 0
        var peakKiB = 0
        while true {
            // The mark only grows: the last reading before the exit is the peak, to within 2 ms.
            if let mark = highWaterMarkKiB(of: pid) { peakKiB = max(peakKiB, mark) }
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            guard reaped == 0 || errno == EINTR else { throw StorekeepProcess.HarnessError(description: "waitpid failed: \(errno)") }
            usleep(2_000)
        }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Usage(status: exitStatus, stdout: try Data(contentsOf: URL(fileURLWithPath: output)),
                     peakResidentBytes: peakKiB * 1024)
    }

    /// `VmHWM` of a running process, in KiB; `nil` before `exec` is done or after the exit.
    private static func highWaterMarkKiB(of pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    @Test("200,000 dictionaries (40 MB of XML, 25 MB binary): inspect streams them in under 100 MB")
    func largeArrayIsStreamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try SpeechTimerData.python(["-c", """
            import plistlib, sys
            items = [{'id': i, 'name': 'item %d' % i, 'note': 'n' * 100 + str(i)} for i in range(200000)]
            plistlib.dump({'items': items}, open(sys.argv[1] + '/large.xml', 'wb'))
            plistlib.dump({'items': items}, open(sys.argv[1] + '/large.bplist', 'wb'), fmt=plistlib.FMT_BINARY)
            """, directory.url.path])
        for name in ["large.xml", "large.bplist"] {
            let usage = try Self.measure(["inspect", directory.url.appendingPathComponent(name).path, "--json"], in: directory)
            #expect(usage.status == 0, "\(name)")
            #expect(String(decoding: usage.stdout, as: UTF8.self).contains("200000"), "\(name): every element was counted")
            // The whole array in memory would take several hundred MB.
            #expect(usage.peakResidentBytes > 0 && usage.peakResidentBytes < 100 << 20, "\(name): peak \(usage.peakResidentBytes >> 20) MB")
        }
    }

    @Test("a 10 MB key: output under 64 KB and peak memory under 200 MB, text and JSON, XML and binary")
    func hugeKeyIsBounded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try SpeechTimerData.python(["-c", """
            import plistlib, sys
            d = {'K' * 10_000_000: 1}
            for i in range(40): d['key%d' % i] = [{'a': i, 'b': 'x'}]
            open(sys.argv[1] + '/huge.xml', 'wb').write(plistlib.dumps(d))
            open(sys.argv[1] + '/huge.bplist', 'wb').write(plistlib.dumps(d, fmt=plistlib.FMT_BINARY))
            """, directory.url.path])
        for name in ["huge.xml", "huge.bplist"] {
            let source = directory.url.appendingPathComponent(name).path
            for extra in [[], ["--json"]] {
                let usage = try Self.measure(["inspect", source] + extra, in: directory)
                #expect(usage.status == 0, "\(name) \(extra)")
                #expect(usage.stdout.count < 64 << 10, "\(name) \(extra): \(usage.stdout.count) bytes printed")
                #expect(usage.peakResidentBytes < 200 << 20, "\(name) \(extra): peak \(usage.peakResidentBytes >> 20) MB")
                let text = String(decoding: usage.stdout, as: UTF8.self)
                #expect(text.contains("KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK… (10000000 bytes, sha256 "), "\(name) \(extra)")
                #expect(text.contains("key39"), "\(name) \(extra): the other keys are all listed")
                if extra.isEmpty { #expect(text.contains("note: keys longer than 256 bytes (met 1 times)"), "\(name)") }
            }
        }
    }
}
