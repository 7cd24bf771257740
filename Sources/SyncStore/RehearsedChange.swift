/// How a change rehearsed by ``SaveRehearsal`` (a deletion or a merge) ends.
public enum RehearsedChange: Equatable, Sendable {
    /// Done: these records are deleted, in the order they go (the record itself, or the merged
    /// duplicate, first; then what the cascade rules delete with it).
    case done(deleted: [GlobalID])
    /// Refused, as the same change in a save would be (a Deny relationship that still holds
    /// records, a link to a record that does not exist): the rehearsal is left as it was before.
    case refused(reason: String)
}
