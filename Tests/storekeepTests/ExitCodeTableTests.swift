import Foundation
import Testing

/// Every row of the failure table in docs/exit-codes.md, brought about through the built binary:
/// the status, stderr naming what is at fault with a hint, and the `--json` document. A row
/// without a case, or a case without a row, fails.
@Suite("docs/exit-codes.md: every failure, through the binary")
struct ExitCodeTableTests {
    /// One row of the table.
    struct Row: Equatable {
        var id: String
        var status: Int32
        /// The failure kind, or `nil` for the statuses of `check` and `repair` ("—").
        var kind: String?
    }

    /// The rows of the "Every failure" table.
    static func documentedRows() throws -> [Row] {
        let text = try String(contentsOf: StorekeepProcess.packageRoot.appendingPathComponent("docs/exit-codes.md"), encoding: .utf8)
        guard let start = text.range(of: "\n## Every failure\n") else { return [] }
        let section = text[start.upperBound...]
        var rows: [Row] = []
        for line in section.split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 4, cells[1].hasPrefix("`"), let status = Int32(cells[2]) else { continue }
            let kind = cells[3].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows.append(Row(id: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), status: status, kind: kind == "—" ? nil : kind))
        }
        return rows
    }

    @Test("the table has a case for every row, and every case a row")
    func everyRowHasACase() throws {
        let rows = try Self.documentedRows()
        #expect(rows.count >= 50, "the table was not found or lost rows: \(rows.count)")
        let documented = rows.map(\.id)
        let cases = ExitCodeCase.all.map(\.id)
        #expect(Set(documented).count == documented.count, "a row id appears twice")
        #expect(Set(cases).count == cases.count, "a case id appears twice")
        for id in documented where !cases.contains(id) { Issue.record("docs/exit-codes.md row \(id) has no case in ExitCodeCases.swift") }
        for id in cases where !documented.contains(id) { Issue.record("case \(id) has no row in docs/exit-codes.md") }
        // Each documented status is the one its kind stands for.
        let statusOfKind = ["usage": 64, "badInput": 65, "missingInput": 66, "internalFailure": 70, "cannotCreateOutput": 73,
                            "ioFailure": 74, "storeBusy": 75, "badConfiguration": 78]
        for row in rows {
            if let kind = row.kind { #expect(statusOfKind[kind] == Int(row.status), "\(row.id): \(kind) is not \(row.status)") }
        }
    }

    @Test("each failure exits with its documented status, names what is at fault and gives a hint", arguments: ExitCodeCase.all)
    func failureIsReportedAsDocumented(_ failure: ExitCodeCase) throws {
        let row = try #require(try Self.documentedRows().first { $0.id == failure.id }, "no row \(failure.id) in docs/exit-codes.md")
        let workspace = try ExitCodeWorkspace()
        defer { workspace.directory.remove() }
        let invocation = try failure.make(workspace)
        let result = try StorekeepProcess.run(invocation.arguments + ["--json"], environment: invocation.environment, in: workspace.directory.url)
        #expect(result.status == row.status, "\(failure.id)\n\(result)")
        switch invocation.output {
        case .errorDocument:
            let message = result.stderr.split(separator: "\n").first { $0.hasPrefix("storekeep: error: ") }.map { String($0.dropFirst(18)) }
            #expect(message != nil, "\(failure.id): no 'storekeep: error:' line\n\(result)")
            for name in invocation.names {
                #expect(result.stderr.contains(name), "\(failure.id): stderr does not name \(name)\n\(result)")
            }
            #expect(result.stderr.contains("\nhint: "), "\(failure.id): no hint\n\(result)")
            let document = try result.jsonError()
            #expect(document["exitCode"] as? Int == Int(row.status), "\(failure.id)")
            #expect(document["kind"] as? String == row.kind, "\(failure.id)")
            #expect(document["message"] as? String == message, "\(failure.id)")
            #expect((document["hint"] as? String)?.isEmpty == false, "\(failure.id)")
        case .report:
            _ = try result.jsonObject()
            for name in invocation.names {
                #expect(result.stdout.contains(name) || result.stderr.contains(name), "\(failure.id): the report does not name \(name)\n\(result)")
            }
            #expect(result.stdout.contains("\"hint\"") || result.stderr.contains("hint: "), "\(failure.id): no hint\n\(result)")
        }
    }
}
