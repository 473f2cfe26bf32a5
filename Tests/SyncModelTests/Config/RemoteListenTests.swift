import SyncTesting
import Testing

@testable import SyncCore

/// A read API other machines can reach needs a token, or says explicitly that it goes without one.
@Suite("config: remote listen addresses")
struct RemoteListenTests {
    @Test(
        "a listen address other machines can reach, without a token, is refused naming the line and the key",
        arguments: ["0.0.0.0:8787", "[::]:8787", "192.168.1.20:8787", "[fe80::1%eth0]:9000", "syncd.example:80"])
    func refused(listen: String) {
        #expect(
            configurationProblems("[server]\nlisten = \"\(listen)\"\n") == [
                "syncd.toml:2: [server]: listen \(listen) is reachable from other machines and no token is set: "
                    + "set token_file or token_credential, or allow_remote = true"
            ])
    }

    @Test(
        "with a token or allow_remote = true it is accepted",
        arguments: ["token_file = \"/etc/t\"", "allow_remote = true"])
    func accepted(extra: String) throws {
        let configuration = try SyncConfiguration.parse(
            "[server]\nlisten = \"0.0.0.0:8787\"\n\(extra)\n", sourcePath: "/etc/syncd/syncd.toml")
        #expect(configuration.server.listen == .tcp(host: "0.0.0.0", port: 8787))
    }

    @Test(
        "loopback addresses and Unix sockets need no token",
        arguments: ["127.0.0.1:8787", "127.9.0.1:1", "localhost:80", "[::1]:8787", "unix:/run/s.sock", "off"])
    func loopback(listen: String) {
        #expect(configurationProblems("[server]\nlisten = \"\(listen)\"\n").isEmpty)
    }

    @Test("allow_remote must be true or false")
    func allowRemoteType() {
        #expect(
            configurationProblems("[server]\nallow_remote = \"yes\"\n") == [
                "syncd.toml:2: [server]: allow_remote must be true or false"
            ])
    }
}
