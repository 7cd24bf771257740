import ObjectModel
import StoreMaintenance

/// The human form of a ``ModelReport``: a heading, then one table per entity.
struct ModelReportText {
    /// The report to render.
    let report: ModelReport

    /// The text.
    func render() -> String {
        var lines: [String] = []
        let current = report.isCurrent ? "current" : "current is \(report.currentVersion)"
        lines.append("model    \(report.name)")
        lines.append("version  \(report.version) (\(current); versions: \(report.versions.joined(separator: ", ")))")
        lines.append("hash     \(report.hash)")
        for entity in report.entities {
            lines.append("")
            var heading = "entity \(entity.name)"
            if let parent = entity.parent { heading += " : \(parent)" }
            if entity.abstract { heading += " (abstract)" }
            heading += "  hash \(entity.hash.prefix(12))  Core Data hash \(entity.coreDataHash.prefix(12))"
            lines.append(heading)
            var facts: [String] = []
            if !entity.facts.seedKey.isEmpty { facts.append("seed key: \(entity.facts.seedKey.joined(separator: ", "))") }
            if entity.facts.singleton { facts.append("singleton") }
            facts.append("invalid records: \(entity.facts.invalidRecordPolicy)")
            if !entity.uniquenessConstraints.isEmpty {
                facts.append("unique: " + entity.uniquenessConstraints.map { "(\($0.joined(separator: ", ")))" }.joined(separator: " "))
            }
            lines.append("  " + facts.joined(separator: "; "))
            var table = TextTable(columns: [.init("property"), .init("kind"), .init("type"), .init("flags")])
            for attribute in entity.attributes {
                table.append([attribute.name, "attribute", attribute.type, Self.flags(of: attribute).joined(separator: " ")])
            }
            for relationship in entity.relationships {
                let shape = relationship.toMany ? (relationship.ordered ? "ordered to-many" : "to-many") : "to-one"
                var flags = [relationship.optional ? "optional" : "required", "delete: \(relationship.deletionRule)"]
                if let inverse = relationship.inverse { flags.append("inverse: \(inverse)") }
                if relationship.transient { flags.append("transient") }
                table.append([relationship.name, shape, "→ \(relationship.destination)", flags.joined(separator: " ")])
            }
            if !table.rows.isEmpty {
                lines.append(contentsOf: table.render().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 })
            }
        }
        if !report.configurations.isEmpty {
            lines.append("")
            lines.append("configurations")
            for configuration in report.configurations {
                let marks = (configuration.usedWithCloudKit ? " (CloudKit)" : "") + (configuration.seedData ? " (read-only seed data: a seed store)" : "")
                lines.append("  \(configuration.name)\(marks): \(configuration.entities.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func flags(of attribute: ModelReport.Attribute) -> [String] {
        var flags = [attribute.optional ? "optional" : "required"]
        if attribute.transient { flags.append("transient") }
        if attribute.derived { flags.append("derived") }
        if attribute.externalStorage { flags.append("external") }
        if let value = attribute.defaultValue { flags.append("default: \(value.isEmpty ? "\"\"" : value)") }
        if let elementID = attribute.elementID { flags.append("elementID: \(elementID)") }
        if let minimum = attribute.minValue { flags.append("min: \(minimum)") }
        if let maximum = attribute.maxValue { flags.append("max: \(maximum)") }
        if let pattern = attribute.regularExpression { flags.append("regex: \(pattern)") }
        if let target = attribute.userInfo[ManagedModel.seedReferenceKey] { flags.append("→ seed \(target)") }
        return flags
    }
}
