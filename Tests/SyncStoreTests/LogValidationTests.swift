import Foundation
import ObjectModel
import Testing
@testable import SyncStore

/// A log's changes are checked whole when it is read, even by the decoder that keeps payloads
/// encoded for the import's fast path: a malformed change is a `WireError` then, never a failure
/// half-way through an import.
@Suite struct LogValidationTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// A log body of one transaction inserting a task with a title, and the title's offset in it.
    private func log() throws -> (SyncStore, [UInt8], Int) {
        let store = try SyncStore.create(at: folder.path("a.store"), model: TestModels.workspace(), contentName: "W", peerID: "A")
        try store.save(author: "app") { tx in _ = try tx.insert("Task", values: ["title": .string("marker-title"), "priority": .integer(3)]) }
        let encoder = TransactionLogEncoder()
        try store.exportTransactions(after: 0, into: encoder, maxChanges: .max)
        let body = encoder.bytes
        let title = Array("marker-title".utf8)
        let offset = try #require((0...(body.count - title.count)).first { Array(body[$0..<($0 + title.count)]) == title })
        return (store, body, offset)
    }

    private func decode(_ body: [UInt8], store: SyncStore, payloads: Bool) throws -> [SyncTransaction] {
        var result: [SyncTransaction] = []
        let decoder = TransactionLogDecoder(store: store, peer: "A", decodingPayloads: payloads)
        try body.withUnsafeBytes { bytes in try decoder.forEachTransaction(in: bytes) { result.append($0) } }
        return result
    }

    @Test func aWellFormedLogDecodesBothWays() throws {
        let (store, body, _) = try log()
        #expect(try decode(body, store: store, payloads: false).first?.changes.first?.encodedPayload != nil)
        #expect(try decode(body, store: store, payloads: true).first?.changes.first?.properties.isEmpty == false)
    }

    @Test(arguments: [
        ("the string's tag made unknown", -2, UInt8(23)),
        ("the string's tag made a membership list", -2, UInt8(13)),
        ("the string's length made longer than the payload", -1, UInt8(120)),
        ("the string made invalid UTF-8", 0, UInt8(0xC0)),
    ])
    func aMalformedChangeIsRefusedWhenTheLogIsRead(_ what: String, _ delta: Int, _ byte: UInt8) throws {
        let (store, original, offset) = try log()
        var body = original
        body[offset + delta] = byte
        #expect(throws: WireError.self, "\(what)") { try decode(body, store: store, payloads: false) }
        #expect(throws: WireError.self, "\(what)") { try decode(body, store: store, payloads: true) }
    }

    @Test func theUTF8CheckAgreesWithTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        var samples: [[UInt8]] = [Array("plain".utf8), Array("é€😀".utf8), [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF]]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...6, using: &generator)
            // Mostly bytes around the multi-byte boundaries, where the rules are.
            samples.append((0..<length).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x80...0xF5, using: &generator) : UInt8.random(in: 0...0xFF, using: &generator)
            })
        }
        for sample in samples {
            let expected = sample.withUnsafeBytes { String(validating: $0, as: UTF8.self) != nil }
            let checked = sample.withUnsafeBytes { WireReader.isUTF8($0) }
            #expect(checked == expected, "\(sample.map { String($0, radix: 16) })")
        }
    }
}
