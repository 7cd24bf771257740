import Foundation
import Testing

/// `storekeep inspect` on a property list with a 10 MB dictionary key: the output and the memory
/// stay bounded (the key is kept and shown as its start, length and hash). A resource assertion
/// (peak resident memory of the child, from `wait4`), not a timing one.
@Suite("storekeep inspect: bounded output and memory")
struct InspectMemoryTests {
    /// What one run of the binary used: its status, stdout, and peak resident memory in bytes.
    struct Usage {
        var status: Int32
        var stdout: Data
        var peakResidentBytes: Int
    }

    /// Runs the built binary with `arguments`, stdout to a file, and reads its peak resident set
    /// size from the kernel's accounting of the child (`ru_maxrss`, in KiB on Linux).
    ///
    /// The binary is started by a small Python process, not by this one: Linux keeps a process's
    /// peak across `exec`, and a child spawned straight from here (`posix_spawn` shares the
    /// parent's memory until its `exec`) would report the whole test runner's peak as its own.
    static func measure(_ arguments: [String], in directory: TemporaryDirectory) throws -> Usage {
        let binary = try StorekeepProcess.binaryURL().path
        let output = directory.url.appendingPathComponent("stdout-\(UUID().uuidString)").path
        let script = """
            import os, sys
            output, argv = sys.argv[1], sys.argv[2:]
            actions = [(os.POSIX_SPAWN_OPEN, 1, output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
                       (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
            environment = {'PATH': '/usr/bin:/bin', 'HOME': os.path.expanduser('~')}
            pid = os.posix_spawn(argv[0], argv, environment, file_actions=actions)
            _, status, usage = os.wait4(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            print(code if code >= 0 else 128 - code, usage.ru_maxrss)
            """
        let words = try SpeechTimerData.python(["-c", script, output, binary] + arguments).split(separator: " ")
        guard words.count == 2, let status = Int32(words[0]),
              let peakKiB = Int(words[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw StorekeepProcess.HarnessError(description: "the measuring helper printed \(words)")
        }
        return Usage(status: status, stdout: try Data(contentsOf: URL(fileURLWithPath: output)), peakResidentBytes: peakKiB * 1024)
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
