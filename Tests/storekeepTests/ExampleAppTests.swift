import Foundation
import Testing

/// The example app that embeds the libraries, run against a store made by the built `storekeep`.
@Suite("Examples/SpeechTimerExample")
struct ExampleAppTests {
    @Test("the example app writes its records into a store made by init")
    func exampleWritesRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("s.store").path
        #expect(try StorekeepProcess.run(["init", store, "--model", ModelFiles.speechTimer, "--content-name", "ST"]).status == 0)
        let example = Process()
        example.executableURL = StorekeepProcess.packageRoot.appendingPathComponent(".build/debug/speechtimer-example")
        example.arguments = [store, ModelFiles.speechTimer]
        example.standardOutput = FileHandle.nullDevice
        try example.run()
        example.waitUntilExit()
        #expect(example.terminationStatus == 0)
        let info = try StorekeepProcess.run(["info", store, "--json"]).jsonObject()
        #expect(info["entities"] as? [String: Int] == ["SpeechType": 4, "Speech": 5, "Settings": 1])
    }
}
