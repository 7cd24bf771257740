import Foundation
import ObjectModel
import SyncStore
import Testing

/// What the store keeps of values at the edges of their types: an infinite Double is kept (and
/// survives a delete's tombstone, whose JSON has no infinity); NaN and out-of-range values are
/// refused with a reason, never stored as something else.
@Suite struct ExactValueStorageTests {
    static let model = ManagedModel(name: "Points", versionName: "Points 1", entities: [
        EntityDescription(name: "Point", attributes: [
            .init(name: "x", type: .double, isOptional: true), .init(name: "small", type: .integer16, isOptional: true),
            .init(name: "flag", type: .boolean, isOptional: true),
        ], uniquenessConstraints: [["x"]]),
    ])

    @Test("an infinite Double is kept and its delete's tombstone says so; NaN, 70000 and 2 are refused")
    func edgesOfTypes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SyncStore.create(at: folder.appendingPathComponent("p.store").path, model: Self.model, contentName: "points")
        let id = try store.save(author: "t") { tx in try tx.insert("Point", values: ["x": .double(-.infinity)]) }
        #expect(try store.record(id)?.values["x"] == .double(-.infinity))
        try store.save(author: "t") { tx in try tx.delete(id) }
        #expect(try store.transactions().last?.changes.first?.tombstone == ["x": .double(-.infinity)])

        for (values, reason) in [(["x": AttributeValue.double(.nan)], "cannot hold NaN"), (["small": .integer(70_000)], "cannot hold 70000, outside"),
                                 (["flag": .integer(2)], "cannot hold 2 (a Boolean is 0 or 1)")] {
            do {
                _ = try store.save(author: "t") { tx in try tx.insert("Point", values: values) }
                Issue.record("\(values) was stored")
            } catch let error as StoreError {
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
    }
}
