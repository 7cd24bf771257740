import GRDB

/// A record that breaks at least one of the tests of a scan
/// (``StoreInspection/forEachRecord(failing:in:_:)``): which ones, and the values they report.
///
/// A match is valid only inside the call that hands it over.
///
/// ```swift
/// try inspection.forEachRecord(failing: tests, in: "e_Speech") { match in
///     for index in tests.indices where match.fails(index) { print(match.globalID, match.value(of: index)) }
/// }
/// ```
public struct RecordTestMatch {
    /// The entity table scanned.
    public let table: String
    /// The record's global ID (empty when it is not text).
    public let globalID: String
    /// The record's exact entity as stored (empty when it is not text).
    public let entity: String
    let row: Row

    init(table: String, row: Row) {
        self.table = table
        self.row = row
        globalID = row.stored("_gid", as: String.self) ?? ""
        entity = row.stored("_entity", as: String.self) ?? ""
    }

    /// Whether the record breaks the test at `index` of the scan's tests.
    public func fails(_ index: Int) -> Bool { row.stored("f\(index)", as: Int.self) == 1 }

    /// The value the test at `index` reports (``InspectedValue/null`` for a test that reports none).
    public func value(of index: Int) -> InspectedValue { InspectedValue(row.storedValue("v\(index)")) }
}
