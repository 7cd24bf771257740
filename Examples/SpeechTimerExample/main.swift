// An app embedding the storekeep libraries: it opens a Speech Timer store, seeds the built-in
// speech types once, and records a few speeches and the settings singleton, the way the
// Speech Timer app of article 1 would. `make demo` runs it between `storekeep init` and `storekeep info`.
//
//   speechtimer-example STORE MODEL
import Foundation
import ObjectModel
import SyncStore
import XcodeModel

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: speechtimer-example STORE MODEL\n".utf8))
    exit(64)
}

do {
    let model = try XcodeModelReader().readModel(at: URL(fileURLWithPath: arguments[2])).current
    let store = try SyncStore.open(at: arguments[1], expecting: model)
    let builtIn: [(String, Double, Double, Double)] = [
        ("Table Topics", 60, 90, 120), ("Icebreaker", 240, 300, 360),
        ("Standard Speech", 300, 360, 420), ("Evaluation", 120, 150, 180),
    ]
    try store.save(author: "speechtimer-example") { tx in
        var types: [String: GlobalID] = [:]
        for (name, green, yellow, red) in builtIn {
            types[name] = try tx.insert(
                "SpeechType",
                values: ["name": .string(name), "greenSeconds": .double(green),
                         "yellowSeconds": .double(yellow), "redSeconds": .double(red)],
                seed: SeedMark(set: "speechtimer.builtin-types", version: 1))
        }
        let speakers = ["Ada", "Grace", "Linus", "Margaret", "Ken"]
        for (index, speaker) in speakers.enumerated() {
            let typeName = builtIn[index % builtIn.count].0
            var values: [String: AttributeValue] = [
                "title": .string("Speech \(index + 1)"), "speakerName": .string(speaker),
                "date": .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400)),
                "duration": .double(200 + Double(index) * 37.5),
            ]
            if index == 0 {
                // A recording over 4 KB goes to a content-addressed file beside the store.
                values["recording"] = .binary(Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
            }
            let speech = try tx.insert("Speech", values: values)
            try tx.setToOne("type", of: speech, to: types[typeName])
        }
        try tx.insert("Settings", values: ["vibrate": .boolean(true), "theme": .string("classic")])
    }
    print("wrote \(builtIn.count) seeded speech types, 5 speeches and the settings to \(arguments[1])")
} catch let error as OperatorFacingError {
    FileHandle.standardError.write(Data("speechtimer-example: error: \(error.description)\n".utf8))
    exit(65)
} catch {
    FileHandle.standardError.write(Data("speechtimer-example: error: \(error)\n".utf8))
    exit(70)
}
