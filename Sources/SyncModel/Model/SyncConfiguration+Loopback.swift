extension SyncConfiguration.Server.Listen {
    /// Whether only this machine can connect: a Unix socket, `off`, or a TCP host that is `localhost`, in
    /// 127.0.0.0/8 or `::1`. `0.0.0.0`, `::`, a LAN address or any other name is not.
    public var isLoopback: Bool {
        guard case .tcp(let host, _) = self else { return true }
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        return Self.isIPv4(name) && name.hasPrefix("127.")
    }

    /// Whether `host` is a dotted-quad IPv4 address, `0.0.0.0` to `255.255.255.255`.
    package static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { ("0"..."9").contains($0) } && UInt8(part) != nil
            }
    }

    /// Whether `host` is a wildcard address: `0.0.0.0` or `::`, every interface.
    package static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::" || host == "0:0:0:0:0:0:0:0"
    }
}
