import Foundation

/// Speech Timer 1 data files written by the project's generator (Python's plistlib: an encoder that
/// is not ours), and facts about them read back by plistlib.
enum SpeechTimerData {
    /// The shipped mapping.
    static var mapping: String {
        StorekeepProcess.packageRoot.appendingPathComponent("Migrations/SpeechTimer/speechtimer1-plist.mapping.yaml").path
    }

    /// Writes a data file and returns its path.
    static func write(
        in directory: TemporaryDirectory, name: String, speeches: Int, format: String = "binary",
        recordingEvery: Int = 10, badTypeAt: Int? = nil
    ) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        var arguments = [StorekeepProcess.packageRoot.appendingPathComponent("scripts/generate-speechtimer-plist.py").path, path,
                         "--speeches", String(speeches), "--format", format, "--recording-every", String(recordingEvery)]
        if let badTypeAt { arguments += ["--bad-type-at", String(badTypeAt)] }
        try python(arguments)
        return path
    }

    /// What plistlib reads from a data file: counts, and the first speech's id and type.
    static func facts(of path: String) throws -> [String: Any] {
        let script = """
            import json, plistlib, sys
            d = plistlib.load(open(sys.argv[1], 'rb'))
            s = d['speeches']
            print(json.dumps({'speeches': len(s), 'recordings': sum(1 for x in s if 'recording' in x),
                              'large': len({x['recording'] for x in s if 'recording' in x and len(x['recording']) > 4096}),
                              'types': len(d['speechTypes']), 'builtIn': sum(1 for t in d['speechTypes'] if t['builtIn']),
                              'firstID': s[0]['id'], 'firstType': s[0]['type'], 'firstTitle': s[0]['title']}))
            """
        let output = try python(["-c", script, path])
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
    }

    /// Rewrites the speeches of a data file with `statements` (Python, `s` being the list of speech
    /// dictionaries), keeping its format.
    static func editSpeeches(of path: String, _ statements: String) throws {
        let script = """
            import plistlib, sys
            with open(sys.argv[1], 'rb') as f: raw = f.read()
            fmt = plistlib.FMT_BINARY if raw.startswith(b'bplist') else plistlib.FMT_XML
            d = plistlib.loads(raw)
            s = d['speeches']
            \(statements)
            with open(sys.argv[1], 'wb') as f: plistlib.dump(d, f, fmt=fmt)
            """
        try python(["-c", script, path])
    }

    @discardableResult
    static func python(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StorekeepProcess.HarnessError(description: "python3 \(arguments.first ?? "") failed with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
