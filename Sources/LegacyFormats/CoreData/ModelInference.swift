import GRDB
import ObjectModel

/// Infers a model from `Z_PRIMARYKEY` and the tables when the store has no usable model cache and
/// no model was given.
///
/// Entity names and inheritance come from `Z_PRIMARYKEY` (original case). Every column of a root
/// table becomes an attribute or a to-one relationship of the root entity (sub-entities inherit
/// them all: which sub-entity declared a column is not stored). Names are the column names without
/// their leading `Z`, upper-cased as stored. Types come from the declared column types, so Boolean,
/// Integer 16/32 and Float cannot be told from Integer 64 and Double. A column is a to-one
/// relationship when a `Z<n>_<NAME>` column names its destination, or when Core Data's
/// `<TABLE>_<COLUMN>_INDEX` index exists and its destination can be told from the names; join tables
/// `Z_<n><NAME>` give many-to-many relationships on both sides.
enum ModelInference {
    /// The inferred model and notes on what could not be worked out.
    static func infer(schema: CoreDataSchema, name: String) -> (ManagedModel, [String]) {
        var notes: [String] = []
        var entities = schema.entityRows.map { row in
            EntityDescription(name: row.name, parentName: schema.entityRow(row.superNumber)?.name)
        }
        func index(of number: Int64) -> Int? {
            guard let row = schema.entityRow(number) else { return nil }
            return entities.firstIndex { $0.name == row.name }
        }
        for row in schema.entityRows where row.superNumber == 0 {
            let table = schema.table(ofEntity: row.number)
            guard let columns = schema.columns[table], let position = index(of: row.number) else { continue }
            for column in columns {
                let stored = column.name
                if ["Z_PK", "Z_ENT", "Z_OPT"].contains(stored) || stored.hasPrefix("Z_FOK_") || !stored.hasPrefix("Z") {
                    continue
                }
                if isEntityColumn(stored) { continue }
                let propertyName = String(stored.dropFirst())
                if let destination = toOneDestination(column: column, table: table, schema: schema) {
                    entities[position].relationships.append(RelationshipDescription(
                        name: propertyName, destination: destination, isOptional: true, maxCount: 1))
                    continue
                }
                if column.declaredType == "INTEGER", schema.indexNames.contains("\(table)_\(stored)_INDEX") {
                    notes.append("\(table).\(stored) looks like a to-one relationship (Core Data indexed it) but its destination cannot be told; read as an integer")
                }
                entities[position].attributes.append(AttributeDescription(
                    name: propertyName, type: attributeType(declared: column.declaredType), isOptional: true))
            }
        }
        for table in schema.joinTables {
            guard let pair = joinTableSides(table, schema: schema) else {
                notes.append("\(table) looks like a join table but its columns are not Z_<n><NAME> pairs; not read")
                continue
            }
            guard let ownIndex = index(of: pair.ownNumber), let targetIndex = index(of: pair.targetNumber) else { continue }
            let ownName = entities[ownIndex].name
            let targetName = entities[targetIndex].name
            entities[ownIndex].relationships.append(RelationshipDescription(
                name: pair.name, destination: targetName, inverseName: pair.inverseName, inverseEntity: targetName,
                isToMany: true, isOrdered: schema.has(table, column: "Z_FOK_\(pair.targetNumber)\(pair.name)"),
                isOptional: true))
            if pair.name != pair.inverseName || ownIndex != targetIndex {
                entities[targetIndex].relationships.append(RelationshipDescription(
                    name: pair.inverseName, destination: ownName, inverseName: pair.name, inverseEntity: ownName,
                    isToMany: true, isOrdered: schema.has(table, column: "Z_FOK_\(pair.ownNumber)\(pair.inverseName)"),
                    isOptional: true))
            }
        }
        notes.append("to-many relationships whose inverse is to-one are not inferred: read them from the to-one side")
        return (ManagedModel(name: name, versionName: name, entities: entities), notes)
    }

    /// `Z<digits>_<NAME>`: the destination entity of a to-one relationship.
    static func isEntityColumn(_ name: String) -> Bool {
        guard name.hasPrefix("Z"), let underscore = name.firstIndex(of: "_") else { return false }
        let digits = name[name.index(after: name.startIndex)..<underscore]
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }

    private static func toOneDestination(column: CoreDataSchema.Column, table: String, schema: CoreDataSchema) -> String? {
        guard column.declaredType == "INTEGER" else { return nil }
        let name = String(column.name.dropFirst())
        for candidate in schema.columns[table] ?? [] where isEntityColumn(candidate.name) && candidate.name.hasSuffix("_" + name) {
            let digits = candidate.name.dropFirst().prefix { $0.isNumber }
            if let number = Int64(digits), let row = schema.entityRow(number) { return row.name }
        }
        guard schema.indexNames.contains("\(table)_\(column.name)_INDEX") else { return nil }
        if let exact = schema.entityRows.first(where: { $0.name.uppercased() == name }) { return exact.name }
        let containing = schema.entityRows.filter { $0.name.uppercased().hasSuffix(name) || $0.name.uppercased().hasPrefix(name) }
        return containing.count == 1 ? containing[0].name : nil
    }

    /// The two sides of `Z_<n><NAME>`: the `Z_<m><NAME>` column holds the targets, the other
    /// `Z_<n><INVERSE>` column (or `REFLEXIVE` for a relationship that is its own inverse) this side.
    private static func joinTableSides(
        _ table: String, schema: CoreDataSchema
    ) -> (ownNumber: Int64, name: String, targetNumber: Int64, inverseName: String)? {
        guard let (tableNumber, name) = split(String(table.dropFirst(2))) else { return nil }
        let keyColumns = (schema.columns[table] ?? []).map(\.name).filter { !$0.hasPrefix("Z_FOK_") }
        if keyColumns.contains("REFLEXIVE") {
            return (tableNumber, name, tableNumber, name)
        }
        let parsed = keyColumns.filter { $0.hasPrefix("Z_") }.compactMap { split(String($0.dropFirst(2))) }
        guard parsed.count == 2, let target = parsed.first(where: { $0.1 == name }),
            let own = parsed.first(where: { $0 != target })
        else { return nil }
        return (own.0, name, target.0, own.1)
    }

    private static func split(_ text: String) -> (Int64, String)? {
        let digits = text.prefix { $0.isNumber }
        guard let number = Int64(digits), digits.count < text.count else { return nil }
        return (number, String(text.dropFirst(digits.count)))
    }

    /// SQLite declared type (as Core Data writes it) → attribute type.
    static func attributeType(declared: String) -> AttributeType {
        switch declared {
        case "INTEGER": return .integer64
        case "FLOAT", "REAL", "DOUBLE": return .double
        case "TIMESTAMP": return .date
        case "VARCHAR", "TEXT": return .string
        case "DECIMAL", "NUMERIC": return .decimal
        default: return .binary
        }
    }
}
