import GRDB
import Testing
@testable import SyncStore

/// Runs `sql` on the store's file with a connection of its own, as a program writing around
/// storekeep would.
func writeAround(_ store: SyncStore, _ sql: String, _ arguments: StatementArguments = []) throws {
    let queue = try DatabaseQueue(path: store.path)
    try queue.write { try $0.execute(sql: sql, arguments: arguments) }
    try queue.close()
}

/// Expects `body` to throw a ``StoreError`` `damaged` (exit 65) whose message names every word.
func expectDamaged(_ what: String, naming words: [String], _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): read without an error")
    } catch let error as StoreError {
        #expect(error.reason == .damaged, "\(what): \(error)")
        #expect(error.failureKind == .badInput, "\(what): \(error)")
        for word in words { #expect(error.message.contains(word), "\(what): \(error.message) does not name \(word)") }
    } catch {
        Issue.record("\(what): \(error) is not a StoreError")
    }
}
