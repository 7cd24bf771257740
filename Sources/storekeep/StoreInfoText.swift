import Foundation
import StoreMaintenance

/// The human form of a ``StoreInfo``: metadata lines, then a table of records per entity.
struct StoreInfoText {
    /// The report to render.
    let info: StoreInfo

    /// The text.
    func render() -> String {
        let created = ISO8601DateFormatter().string(from: info.createdAt)
        let metadata = TextTable(
            columns: [.init("key"), .init("value")],
            rows: [
                ["store", info.path],
                ["format", String(info.formatVersion)],
                ["model", "\(info.model.name), version \(info.model.version)"],
                ["model hash", info.model.hash],
                ["content name", info.contentName],
                ["peer", info.peerID],
                ["account", info.accountToken ?? "(none)"],
                ["sync", (info.syncEnabled ? "on" : "off") + (info.sync.container.map { " (container \($0))" } ?? "")],
                ["exported", "\(info.sync.exportedSequence) of \(info.sync.localSequence) transactions"],
                ["created", created],
                ["history", "\(info.history.transactions) transactions, \(info.history.changes) changes"],
                ["size", "\(info.databaseBytes) bytes"],
            ],
            showsHeader: false)
        let counts = TextTable(
            columns: [.init("entity"), .init("records", alignment: .right)],
            rows: info.entities.keys.sorted().map { [$0, String(info.entities[$0] ?? 0)] })
        var text = metadata.render()
        if !info.rekeys.isEmpty {
            let rekeys = TextTable(columns: [.init("rekeyed"), .init("from"), .init("to"), .init("what")],
                                   rows: info.rekeys.map { [ISO8601DateFormatter().string(from: $0.at), $0.from, $0.to, $0.description] })
            text += "\n\n" + rekeys.render()
        }
        let seeds = info.seedStore.map { [$0] } ?? info.seedStores
        if !seeds.isEmpty {
            let table = TextTable(columns: [.init(info.seedStore == nil ? "seed store" : "this seed store"), .init("configuration"), .init("state"), .init("seed set"), .init("records", alignment: .right)],
                                  rows: seeds.map { seed in
                                      [seed.path, seed.configuration, seed.state + (seed.problem.map { ": \($0)" } ?? ""),
                                       seed.seedSet.map { "\($0) version \(seed.version ?? 0)" } ?? "", seed.records.map(String.init) ?? ""]
                                  })
            text += "\n\n" + table.render()
        }
        return text + "\n\n" + counts.render()
    }
}
