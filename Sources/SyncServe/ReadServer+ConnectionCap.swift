internal import HummingbirdCore
internal import Logging

// Apart from ReadServer.swift: HummingbirdCore's own `SyncConfiguration.Server` would make SyncCore's ambiguous there.
extension ReadServer {
    /// What stops the server from accepting more than `maxConnections` at once: past it, new connections wait in
    /// the listen backlog until one closes.
    static func connectionCap(_ maxConnections: Int, logger: Logger) -> any AvailableConnectionsDelegate {
        MaximumAvailableConnections(maxConnections, logger: logger)
    }
}
