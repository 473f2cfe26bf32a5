extension SyncConfiguration.Server.Listen {
    /// Parses a listen address: `"127.0.0.1:8787"`, `"localhost:8787"`, `"[::1]:8787"`, `"unix:/run/syncd/read.sock"`
    /// or `"off"`; nil for anything else. A port is 0 (any free port) to 65535; a Unix path is kept as written.
    public init?(parsing text: String) {
        if text == "off" {
            self = .off
            return
        }
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst("unix:".count))
            guard !path.isEmpty, !path.utf8.contains(0) else { return nil }
            self = .unix(path: path)
            return
        }
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = text[..<colon]
        let port = text[text.index(after: colon)...]
        guard !port.isEmpty, port.count <= 5, port.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(port),
            number <= 65535
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
            guard host.contains(":"),
                host.allSatisfy({ $0.isHexDigit || ":.%".contains($0) || Self.isNameCharacter($0) })
            else { return nil }
        } else {
            guard host.allSatisfy(Self.isNameCharacter) else { return nil }
        }
        guard !host.isEmpty else { return nil }
        self = .tcp(host: String(host), port: number)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
