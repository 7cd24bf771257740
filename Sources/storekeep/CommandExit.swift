/// Ends a command with an exit status of its own choosing, after it has printed its own output.
///
/// Most commands never need this: throwing an `OperatorFacingError` picks the documented code.
/// A command with its own convention (such as a monitoring check using 0–3) renders its report,
/// then throws this error; ``CommandLauncher`` exits with ``status`` and prints ``message``, if
/// any, on stderr.
///
/// ```swift
/// try context.output.emit(report) { report.text }
/// if report.hasViolations { throw CommandExit(status: 2) }
/// ```
struct CommandExit: Error, Equatable, Sendable {
    /// The process exit status.
    var status: Int32
    /// A line to print on stderr, if the command has something to add.
    var message: String?

    /// Creates an exit request with the given status and an optional stderr message.
    init(status: Int32, message: String? = nil) {
        self.status = status
        self.message = message
    }
}
