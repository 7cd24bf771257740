import Foundation
import GRDB
import ObjectModel

/// Works out what a sequence of changes would do to a store without writing anything: which
/// records a deletion takes with it (cascade rules), which deletion or merge a save would refuse,
/// which relationships end up changed, and which external files no record refers to afterwards.
///
/// Each operation follows the ``StoreTransaction`` operation of the same name, on the store as it
/// is plus the changes rehearsed so far (kept in memory, in proportion to what changed). Planning
/// with it (`storekeep repair`, with and without `--dry-run`) finds what a plan's own changes
/// cause, such as a required relationship a fix empties. Get one from ``SyncStore/rehearse(_:)``.
///
/// ```swift
/// try store.rehearse { rehearsal in
///     try rehearsal.clearInvalidReference("type", of: speech)
///     if case .refused(let reason) = try rehearsal.delete(type) { print(reason) }
///     let changed = rehearsal.touches               // what to check again
/// }
/// ```
public final class SaveRehearsal {
    /// Reads the store as it is (a transaction object over a read-only connection: it never writes).
    let reader: StoreTransaction
    /// The records deleted so far.
    public private(set) var deleted = Set<GlobalID>()
    /// Every change of a relationship so far, in order (a relationship changed twice is listed
    /// twice): read it from where you last stopped to check again only what changed since.
    public private(set) var touches: [RelationshipSlot] = []
    /// To-one columns given a new value: (record, `table.column`) → target.
    private var toOneOverride: [ColumnSlot: GlobalID?] = [:]
    /// Records a to-one column points at because of a rehearsed change, by column and target.
    private var pointedAt: [ColumnSlot: [GlobalID]] = [:]
    /// Join rows removed, and join rows added (by table, side column and that side's value).
    private var joinRemoved = Set<JoinRow>()
    private var joinAdded: [JoinSide: [GlobalID]] = [:]
    /// While a deletion or merge is tried: how to undo each change made so far.
    private var undoLog: [() -> Void]?

    init(reader: StoreTransaction) {
        self.reader = reader
    }

    var model: ManagedModel { reader.model }
    var layout: StoreLayout { reader.layout }

    /// A to-one column of one record.
    struct ColumnSlot: Hashable {
        var record: GlobalID
        var column: String
    }

    /// A row of a join table.
    struct JoinRow: Hashable {
        var table: String
        var owner: GlobalID
        var target: GlobalID
    }

    /// One side of the rows of a join table: those whose `column` holds `value`.
    struct JoinSide: Hashable {
        var table: String
        var column: String
        var value: GlobalID
    }

    // MARK: - The store as rehearsed

    /// The exact entity of `id`, or `nil` when there is no such record (or it was deleted).
    ///
    /// - Throws: ``StoreError`` `damaged` for a row that names no entity of its table.
    public func entity(of id: GlobalID) throws -> String? {
        deleted.contains(id) ? nil : try reader.entity(of: id)
    }

    func requireEntity(of id: GlobalID) throws -> String {
        guard let entity = try entity(of: id) else { throw reader.request("there is no record with global ID \(id)") }
        return entity
    }

    /// The members of `relationship` of `id` after the changes rehearsed so far (zero or one for a
    /// to-one relationship). Join rows count whether or not the record they name exists, as `check` counts them.
    public func members(of relationship: String, of id: GlobalID) throws -> [GlobalID] {
        try members(of: relationship, of: id, entity: try requireEntity(of: id))
    }

    func members(of relationship: String, of id: GlobalID, entity: String) throws -> [GlobalID] {
        switch layout.relationships[entity]?[relationship] {
        case .column(let table, let column, _)?:
            return try currentTarget(table: table, column: column, of: id).map { [$0] } ?? []
        case .inverseColumn(let table, let column, _)?:
            return try holders(table: table, column: column, of: id)
        case .join(let table, let sourceColumn, _, _, _)?:
            return try joinMembers(table: table, sourceColumn: sourceColumn, of: id, relationship: relationship, entity: entity)
        case nil:
            return []
        }
    }

    /// The value a rehearsed change gave a to-one column (`.some(nil)`: emptied), or `nil` when none did.
    func overriddenTarget(_ slot: ColumnSlot) -> GlobalID?? {
        toOneOverride[slot]
    }

    /// What the to-one column holds for `id` after the changes rehearsed so far.
    func currentTarget(table: String, column: String, of id: GlobalID) throws -> GlobalID? {
        if let overridden = toOneOverride[ColumnSlot(record: id, column: "\(table).\(column)")] { return overridden }
        return try reader.currentTarget(table: table, column: column, of: id)
    }

    /// The live records of `table` whose `column` points at `id`.
    func holders(table: String, column: String, of id: GlobalID) throws -> [GlobalID] {
        let key = "\(table).\(column)"
        var found: [GlobalID] = []
        var seen = Set<GlobalID>()
        let stored = try GlobalID.fetch(reader.db, table: table, column: column, equals: id)
        for holder in stored + (pointedAt[ColumnSlot(record: id, column: key)] ?? []) where !deleted.contains(holder) {
            guard seen.insert(holder).inserted else { continue }
            if let overridden = toOneOverride[ColumnSlot(record: holder, column: key)], overridden != id { continue }
            found.append(holder)
        }
        return found
    }

    /// The other sides of the join rows whose `sourceColumn` holds `id`.
    func joinMembers(table: String, sourceColumn: String, of id: GlobalID, relationship: String, entity: String) throws -> [GlobalID] {
        let stored = try reader.members(of: relationship, of: id, entity: entity)
        var found: [GlobalID] = []
        var seen = Set<GlobalID>()
        for member in stored + (joinAdded[JoinSide(table: table, column: sourceColumn, value: id)] ?? []) {
            guard seen.insert(member).inserted, !joinRemoved.contains(joinRow(table: table, sourceColumn: sourceColumn, id, member)) else { continue }
            found.append(member)
        }
        return found
    }

    /// The records whose join rows in `table` name `id` in `targetColumn`.
    func joinHolders(table: String, targetColumn: String, of id: GlobalID) throws -> [GlobalID] {
        let sourceColumn = targetColumn == "owner" ? "target" : "owner"
        let stored = try String.fetchAll(
            reader.db.cachedStatement(sql: "SELECT \(sourceColumn) FROM \(table.quotedSQLIdentifier) WHERE \(targetColumn) = ? ORDER BY \(sourceColumn)"),
            arguments: [id.rawValue]).map(GlobalID.init)
        var found: [GlobalID] = []
        var seen = Set<GlobalID>()
        for holder in stored + (joinAdded[JoinSide(table: table, column: targetColumn, value: id)] ?? []) {
            guard seen.insert(holder).inserted, !joinRemoved.contains(joinRow(table: table, sourceColumn: sourceColumn, holder, id)) else { continue }
            found.append(holder)
        }
        return found
    }

    func joinRow(table: String, sourceColumn: String, _ source: GlobalID, _ other: GlobalID) -> JoinRow {
        sourceColumn == "owner" ? JoinRow(table: table, owner: source, target: other) : JoinRow(table: table, owner: other, target: source)
    }

    // MARK: - Changes, each undoable while a deletion or merge is tried

    func write(_ target: GlobalID?, table: String, column: String, of id: GlobalID) {
        let slot = ColumnSlot(record: id, column: "\(table).\(column)")
        let previous = toOneOverride[slot]
        toOneOverride[slot] = .some(target)
        undoLog?.append { [unowned self] in toOneOverride[slot] = previous }
        if let target {
            let pointer = ColumnSlot(record: target, column: slot.column)
            pointedAt[pointer, default: []].append(id)
            undoLog?.append { [unowned self] in pointedAt[pointer]?.removeLast() }
        }
    }

    func removeJoinRows(_ rows: [JoinRow]) {
        for row in rows where joinRemoved.insert(row).inserted {
            undoLog?.append { [unowned self] in joinRemoved.remove(row) }
        }
    }

    func addJoinRow(_ row: JoinRow) {
        if joinRemoved.remove(row) != nil {
            undoLog?.append { [unowned self] in joinRemoved.insert(row) }
            return
        }
        for side in [JoinSide(table: row.table, column: "owner", value: row.owner), JoinSide(table: row.table, column: "target", value: row.target)] {
            joinAdded[side, default: []].append(side.column == "owner" ? row.target : row.owner)
            undoLog?.append { [unowned self] in joinAdded[side]?.removeLast() }
        }
    }

    func markDeleted(_ id: GlobalID) {
        guard deleted.insert(id).inserted else { return }
        undoLog?.append { [unowned self] in deleted.remove(id) }
    }

    /// Notes that `relationship` of `id` changed (as ``StoreTransaction`` touches a record).
    func touch(_ id: GlobalID, entity: String, relationship: String) {
        touches.append(RelationshipSlot(record: id, entity: entity, relationship: relationship))
        undoLog?.append { [unowned self] in touches.removeLast() }
    }

    /// Runs `change` as one unit: when it throws a refusal (``StoreError`` `invalidRequest`, as a
    /// save would), every change it made is undone and the reason returned.
    func tryChange(_ change: () throws -> [GlobalID]) throws -> RehearsedChange {
        let outer = undoLog
        undoLog = []
        do {
            let removed = try change()
            let done = undoLog ?? []
            undoLog = outer.map { $0 + done }
            return .done(deleted: removed)
        } catch let error as StoreError where error.reason == .invalidRequest {
            for undo in (undoLog ?? []).reversed() { undo() }
            undoLog = outer
            return .refused(reason: error.message)
        } catch {
            for undo in (undoLog ?? []).reversed() { undo() }
            undoLog = outer
            throw error
        }
    }
}
