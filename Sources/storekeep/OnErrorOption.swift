import ArgumentParser
import StoreMaintenance

/// `--on-error stop|skip`: what `migrate` does with a record that cannot be written. Parsed by
/// swift-argument-parser, which lists the choices in `--help` and refuses anything else (exit 64).
enum OnErrorOption: String, CaseIterable, ExpressibleByArgument {
    /// Stop at the first such record; the target stays resumable.
    case stop
    /// Skip it, report it, and go on.
    case skip

    /// The engine's policy.
    var policy: MigrationOptions.OnError {
        switch self {
        case .stop: .stop
        case .skip: .skip
        }
    }
}
