internal import FoundationEssentials

extension PostgresMigrations {
    /// The statements of a migration file, split at each `;` outside a string, a quoted name or a comment (the
    /// migrations hold no dollar-quoted bodies). Comments are dropped; empty statements too.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current: [UInt8] = []
        var quote: UInt8?
        var inComment = false
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if inComment {
                if byte == UInt8(ascii: "\n") {
                    inComment = false
                    current.append(byte)
                }
                continue
            }
            if let open = quote {
                current.append(byte)
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                quote = byte
                current.append(byte)
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                inComment = true
            case UInt8(ascii: ";"):
                statements.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            default:
                current.append(byte)
            }
        }
        statements.append(String(decoding: current, as: UTF8.self))
        return statements.map { statement in
            String(statement.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }.filter { !$0.isEmpty }
    }
}
