/// A value a store holds that is not of the kind storekeep writes there, found where the store's
/// path is not at hand: ``StoreError/wrapping(_:path:action:)`` turns it into a `damaged` error
/// naming the store.
struct DamagedValue: Error, CustomStringConvertible {
    /// Where the value is and what it holds, in one sentence (without the store's path).
    let description: String
}
