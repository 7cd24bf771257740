/// Stops a check that cannot go on (the store is not a store, or of a newer format); the report's
/// status is then ``CheckStatus/failed``.
struct CheckAbort: Error {
    /// Why.
    var failure: CheckFailure
}
