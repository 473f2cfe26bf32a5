import Logging

/// `SYNCD_LOG_LEVEL`: one of swift-log's levels, in any case. Anything else keeps the command's default and is
/// warned about once, naming the accepted levels, rather than silently ignored.
struct LogLevelSetting {
    /// The accepted values, lowest first: `trace, debug, info, notice, warning, error, critical`.
    static let accepted = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")

    var level: Logger.Level
    /// The value given, when it is not a level.
    var rejected: String?

    init(environment: [String: String], default defaultLevel: Logger.Level) {
        let text = environment["SYNCD_LOG_LEVEL"]
        if let text, let level = Logger.Level(rawValue: text.lowercased()) {
            self.level = level
        } else {
            level = defaultLevel
            rejected = text.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// Logs the one warning, once the logging system is set up.
    func warnIfRejected(_ logger: Logger) {
        guard let rejected else { return }
        logger.warning(
            "SYNCD_LOG_LEVEL is not a log level; using the default",
            metadata: ["value": "\(rejected)", "accepted": "\(Self.accepted)", "default": "\(level.rawValue)"])
    }
}
