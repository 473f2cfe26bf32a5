/// RFC 8288 `Link` header fields: finds the target of `rel="next"` (and of `rel="last"`).
///
/// A field may hold several links separated by commas, a response may hold several fields, and `rel` may list
/// several relation types (`rel="next last"`); targets may contain commas and semicolons inside `<…>`, and
/// quoted parameter values may contain them too.
package enum LinkHeader {
    /// The target of the first link whose relation types include `next` (compared case-insensitively), as written:
    /// relative or absolute.
    ///
    /// - Parameter fields: every `Link` field of the response, in order.
    package static func next(in fields: [String]) -> String? {
        target(of: "next", in: fields)
    }

    /// The target of the first link whose relation types include `relation` (lowercase), as written.
    ///
    /// - Parameters:
    ///   - relation: a lowercase relation type: `next`, `last`.
    ///   - fields: every `Link` field of the response, in order.
    package static func target(of relation: String, in fields: [String]) -> String? {
        target(of: relation, among: fields.flatMap(links(in:)))
    }

    /// The target of the first of `links` whose relation types include `relation` (lowercase): for a reader that
    /// looks for several relations in the fields it read once.
    package static func target(of relation: String, among links: [(target: String, relations: [String])]) -> String? {
        links.first { $0.relations.contains(relation) }?.target
    }

    /// The links of one field: each target and its lowercased relation types.
    ///
    /// Read byte by byte over the field's UTF-8: every byte that structures it is ASCII, and a multi-byte character's
    /// bytes never are, so the targets and values come out as they were written. (A paged sync reads this for every
    /// page; reading it as Unicode scalars, slice by slice, was 5% of its event loop's time.)
    package static func links(in field: String) -> [(target: String, relations: [String])] {
        var field = field
        return field.withUTF8 { links(in: $0) }
    }

    private static func links(in bytes: UnsafeBufferPointer<UInt8>) -> [(target: String, relations: [String])] {
        var links: [(target: String, relations: [String])] = []
        var index = 0
        let count = bytes.count
        func isBlank(_ byte: UInt8) -> Bool { byte == Byte.space || byte == Byte.tab }
        func skipBlanks() { while index < count, isBlank(bytes[index]) { index += 1 } }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        while true {
            while index < count, isBlank(bytes[index]) || bytes[index] == Byte.comma { index += 1 }
            guard index < count, bytes[index] == Byte.lessThan else { break }
            index += 1
            let targetStart = index
            while index < count, bytes[index] != Byte.greaterThan { index += 1 }
            guard index < count else { break }
            let target = text(targetStart..<index)
            index += 1
            var relations: [String] = []
            // Parameters until the comma that ends this link.
            while true {
                skipBlanks()
                guard index < count, bytes[index] == Byte.semicolon else { break }
                index += 1
                skipBlanks()
                let nameStart = index
                while index < count, !Byte.endsName(bytes[index]) { index += 1 }
                let name = text(nameStart..<index)
                skipBlanks()
                var value = ""
                if index < count, bytes[index] == Byte.equals {
                    index += 1
                    skipBlanks()
                    if index < count, bytes[index] == Byte.quote {
                        index += 1
                        var unescaped: [UInt8] = []
                        var escaped = false
                        while index < count {
                            let byte = bytes[index]
                            index += 1
                            if escaped {
                                // A character's first byte; the rest of it follows as plain bytes.
                                unescaped.append(byte)
                                escaped = false
                            } else if byte == Byte.backslash {
                                escaped = true
                            } else if byte == Byte.quote {
                                break
                            } else {
                                unescaped.append(byte)
                            }
                        }
                        value = String(decoding: unescaped, as: UTF8.self)
                    } else {
                        let tokenStart = index
                        while index < count, !Byte.endsToken(bytes[index]) { index += 1 }
                        value = text(tokenStart..<index)
                    }
                }
                if name.lowercased() == "rel" {
                    relations = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                }
            }
            links.append((target, relations))
            // Anything else up to the next comma is not a parameter: skip it.
            while index < count, bytes[index] != Byte.comma { index += 1 }
        }
        return links
    }

    /// The ASCII bytes that structure a field.
    private enum Byte {
        static let tab = UInt8(ascii: "\t")
        static let space = UInt8(ascii: " ")
        static let quote = UInt8(ascii: "\"")
        static let comma = UInt8(ascii: ",")
        static let semicolon = UInt8(ascii: ";")
        static let lessThan = UInt8(ascii: "<")
        static let equals = UInt8(ascii: "=")
        static let greaterThan = UInt8(ascii: ">")
        static let backslash = UInt8(ascii: "\\")

        /// `=`, `;`, `,`, space or tab: where a parameter's name ends.
        static func endsName(_ byte: UInt8) -> Bool {
            byte == equals || endsToken(byte)
        }

        /// `;`, `,`, space or tab: where an unquoted value ends.
        static func endsToken(_ byte: UInt8) -> Bool {
            byte == semicolon || byte == comma || byte == space || byte == tab
        }
    }
}
