import ObjectModel

extension SyncStore {
    /// Why `record` cannot be imported as it is, or `nil` when it can: an unknown or abstract
    /// entity, an unknown or transient property, a value of the wrong kind, a duplicate global ID
    /// is *not* checked here (the import itself refuses it).
    public func problem(with record: ImportRecord) -> String? {
        guard let plan = plans[record.entity] else {
            return "there is no entity named '\(record.entity)' in model \(model.versionName)"
        }
        if plan.isAbstract { return "entity \(record.entity) is abstract" }
        var next = 0
        for (name, value) in record.values {
            guard let index = plan.columnIndex(named: name, from: next) else {
                return "entity \(record.entity) has no stored attribute named '\(name)'"
            }
            next = index + 1
            let type = plan.columns[index].type
            if let reason = ValueCoder.refusal(of: value, type: type) {
                return "\(record.entity).\(name) is of type \(type.rawValue) and cannot hold \(reason)"
            }
        }
        for name in record.toOne.keys where !plan.toOne.contains(where: { $0.name == name }) {
            return "entity \(record.entity) has no stored to-one relationship named '\(name)'"
        }
        for name in record.toMany.keys where !plan.joinedToMany.contains(name) {
            return "\(record.entity).\(name) is not a to-many relationship kept in a join table"
        }
        return nil
    }
}
