import Foundation
import SyncStore
import Testing

/// Seeding helpers for the Speech Timer peers: run `seed`, read the speech types back.
extension SyncPeers {
    /// The Speech Timer seed set shipped in `Migrations/SpeechTimer/`.
    static var builtinTypes: String {
        StorekeepProcess.packageRoot.appendingPathComponent("Migrations/SpeechTimer/speechtimer-builtin-types.seed.yaml").path
    }

    /// `storekeep seed --json` of `set` on `peer`; its report (the run must succeed).
    func seed(_ peer: String, _ set: String, _ extra: [String] = []) throws -> [String: Any] {
        let result = try StorekeepProcess.run(["seed", store(peer), "--from", set, "--json"] + extra)
        try #require(result.status == 0, "\(result)")
        return try result.jsonObject()
    }

    /// The live SpeechType records of `peer` by global ID.
    func types(_ peer: String) throws -> [String: Record] {
        let store = try SyncStore.open(at: store(peer), readOnly: true)
        var records: [String: Record] = [:]
        for id in try store.globalIDs(of: "SpeechType") { records[id.rawValue] = try store.record(id) }
        return records
    }

    /// The names of the live SpeechType records of `peer`, with how many records carry each.
    func typeNames(_ peer: String) throws -> [String: Int] {
        var names: [String: Int] = [:]
        for record in try types(peer).values {
            if case .string(let text)? = record.values["name"] { names[text, default: 0] += 1 }
        }
        return names
    }

    /// The SpeechType records of `peer` named `name`.
    func types(_ peer: String, named name: String) throws -> [Record] {
        try types(peer).values.filter { $0.values["name"] == .string(name) }.sorted { $0.globalID.rawValue < $1.globalID.rawValue }
    }

    /// A version 2 of the Speech Timer seed set: Icebreaker, Evaluation and Table Topics change,
    /// Panel is new.
    func builtinTypesVersion2() throws -> String {
        var text = try String(contentsOfFile: Self.builtinTypes, encoding: .utf8)
        text = text.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "name: Icebreaker, greenSeconds: 240", with: "name: Icebreaker, greenSeconds: 250")
            .replacingOccurrences(of: "name: Evaluation, greenSeconds: 120", with: "name: Evaluation, greenSeconds: 130")
            .replacingOccurrences(of: "name: Table Topics, greenSeconds: 60", with: "name: Table Topics, greenSeconds: 70")
        text += "  - entity: SpeechType\n    values: {name: Panel, greenSeconds: 600, yellowSeconds: 660, redSeconds: 720}\n"
        return try directory.write(text, to: "builtin-v2-\(UUID().uuidString).seed.yaml")
    }
}
