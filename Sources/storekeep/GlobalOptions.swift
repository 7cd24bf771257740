import ArgumentParser

/// The options every storekeep command takes, declared once and included with `@OptionGroup`.
///
/// These are the raw flags as typed. ``ResolvedSettings`` combines them with the
/// `STOREKEEP_*` environment variables and the config file; commands read the resolved values
/// from ``CommandContext`` rather than from here.
///
/// ```swift
/// @OptionGroup var globals: GlobalOptions
/// ```
struct GlobalOptions: ParsableArguments {
    /// `--json` / `--no-json`: one JSON document on stdout and nothing else; `nil` when not given.
    @Flag(
        inversion: .prefixedNo,
        help: "Print one JSON document on stdout and nothing else (logs stay on stderr).")
    var json: Bool?

    /// `--quiet`: log only errors.
    @Flag(help: "Log only errors.")
    var quiet = false

    /// `--verbose`: log debug messages too.
    @Flag(help: "Log debug messages too.")
    var verbose = false

    /// `--log-level`: the lowest level logged to stderr; wins over `--quiet` and `--verbose`.
    @Option(help: "The lowest level of message logged on stderr.")
    var logLevel: LogLevelOption?

    /// `--config`: a settings file of `key: value` lines.
    @Option(help: "A settings file of 'key: value' lines (default: $STOREKEEP_CONFIG).", completion: .file())
    var config: String?

    /// Rejects `--quiet` with `--verbose`, which contradict each other (exit 64).
    func validate() throws {
        if quiet && verbose {
            throw ValidationError("--quiet and --verbose cannot be used together.")
        }
    }
}
