import Testing

@testable import SyncCore
@testable import SyncHTTP

/// The rules that pick a proxy: `NO_PROXY` as curl matches it, and proxy URLs from syncd.toml and the environment.
@Suite("sync: proxy rules")
struct ProxyRulesTests {
    @Test(
        "NO_PROXY matches names with their subdomains, IP addresses and ranges, and * everything",
        arguments: [
            ("example.com", "example.com", true),
            ("example.com", "api.example.com", true),
            (".example.com", "example.com", true),
            (".example.com", "API.Example.COM", true),
            ("example.com", "myexample.com", false),
            ("example.com", "example.com.evil.net", false),
            ("example.com:8443", "api.example.com", true),
            ("  a.test ,example.com", "example.com", true),
            ("*", "anything.at.all", true),
            ("internal, *", "anything.at.all", true),
            ("127.0.0.1", "127.0.0.1", true),
            ("127.0.0.1", "127.0.0.2", false),
            ("10.0.0.0/8", "10.200.3.4", true),
            ("10.0.0.0/8", "11.0.0.1", false),
            ("192.168.1.0/25", "192.168.1.127", true),
            ("192.168.1.0/25", "192.168.1.128", false),
            ("fd00::/8", "fd12::1", true),
            ("[::1]:8080", "::1", true),
            ("::1", "::2", false),
            ("10.0.0.0/8", "ten.example", false),
            ("10.0.0.0/99", "10.0.0.1", false),
            ("", "example.com", false),
        ])
    func noProxy(list: String, host: String, matches: Bool) {
        #expect(NoProxyList(list).matches(host: host) == matches)
    }

    @Test("a proxy URL from the environment may omit the scheme and the port (1080), and carry credentials")
    func environmentURL() throws {
        let plain = try ProxyAddress.parse("proxy.corp", strict: false).get()
        #expect((plain.host, plain.port, plain.username) == ("proxy.corp", 1080, nil))
        let full = try ProxyAddress.parse("HTTP://u%40corp:p%3Aw@[fd00::1]:3128/", strict: false).get()
        #expect((full.host, full.port, full.username, full.password) == ("fd00::1", 3128, "u@corp", "p:w"))
    }

    @Test(
        "proxy in syncd.toml is http://host:port, without credentials",
        arguments: [
            ("http://proxy.corp:3128", nil),
            ("proxy.corp:3128", ProxyAddressError.scheme),
            ("https://proxy.corp:3128", .scheme),
            ("socks5://proxy.corp:1080", .scheme),
            ("http://proxy.corp", .port),
            ("http://proxy.corp:0", .port),
            ("http://proxy.corp:65536", .port),
            ("http://proxy.corp:3128/path", .path),
            ("http://user:secret@proxy.corp:3128", .credentials),
            ("http://:3128", .host),
            ("http://pro xy:3128", .host),
        ])
    func configuredURL(text: String, error: ProxyAddressError?) {
        switch ProxyAddress.parse(text, strict: true) {
        case .success: #expect(error == nil)
        case .failure(let found): #expect(found == error)
        }
    }

    @Test("a configured proxy's problems never quote its URL")
    func problemsHideTheURL() {
        let proxy = HTTPProxy.url("http://user:hunter2@proxy.corp:3128")
        #expect(proxy.problems.map(\.sentence) == ["proxy \(ProxyAddressError.credentials.clause)"])
        #expect(!proxy.problems.map(\.sentence).joined().contains("hunter2"))
    }
}
