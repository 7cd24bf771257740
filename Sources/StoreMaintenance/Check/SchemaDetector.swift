import ObjectModel
import SyncStore

/// Reviews the store's layout against the model (``SyncStore/StoreInspection/reviewSchema(against:_:)``):
/// every disagreement is a ``CheckCode/schemaMismatch`` finding, and the property is left out of
/// later checks; the layout of what agrees becomes ``CheckContext/layout``.
enum SchemaDetector {
    /// Sets ``CheckContext/layout``.
    static func check(_ context: CheckContext) throws {
        guard let model = context.model else { return }
        // The tables are known even when the column map cannot be read: set before the review may throw.
        context.layout = try context.inspection.layout(of: model).tablesOnly
        context.layout = try context.inspection.reviewSchema(against: model) { report($0, context) }
    }

    private static func report(_ difference: StoreSchemaDifference, _ context: CheckContext) {
        let message: String
        switch difference {
        case .entityTableMissing(let entity, let table):
            message = "the table \(table) of entity \(entity) is missing"
        case .entityTableColumnsMissing(_, let table, let columns):
            message = "the table \(table) lacks the columns \(columns.joined(separator: ", "))"
        case .columnMapMissing(let table):
            message = "the table \(table) is missing"
        case .propertyNotMapped(let entity, let property, let table):
            message = "\(table) has no row for \(entity).\(property)"
        case .propertyKindUnfit(let entity, let property, let kind, let table):
            message = "\(table) says \(entity).\(property) is stored as '\(kind.rawValue)', which does not fit the model"
        case .propertyTableMissing(let entity, let property, let table):
            message = "the table \(table) that holds \(entity).\(property) is missing"
        case .propertyColumnMissing(let entity, let property, let table, let column):
            message = "the table \(table) has no column \(column) for \(entity).\(property)"
        }
        context.add(.schemaMismatch, entity: difference.entity, property: difference.property) {
            var finding = CheckFinding(code: .schemaMismatch, entity: difference.entity, message: message + "; what it holds was not checked",
                                       hint: "the store's layout is damaged or was changed by hand; restore it from a backup")
            finding.property = difference.property
            finding.table = difference.table
            return finding
        }
    }
}
