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
        for field in fields {
            for link in links(in: field) where link.relations.contains(relation) {
                return link.target
            }
        }
        return nil
    }

    /// The links of one field: each target and its lowercased relation types.
    package static func links(in field: String) -> [(target: String, relations: [String])] {
        var links: [(target: String, relations: [String])] = []
        var scalars = Substring(field).unicodeScalars[...]
        while true {
            scalars = scalars.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard scalars.first == "<" else { break }
            scalars = scalars.dropFirst()
            let target = String(String.UnicodeScalarView(scalars.prefix { $0 != ">" }))
            scalars = scalars.drop { $0 != ">" }
            guard scalars.first == ">" else { break }
            scalars = scalars.dropFirst()
            var relations: [String] = []
            // Parameters until the comma that ends this link.
            while true {
                scalars = scalars.drop { $0 == " " || $0 == "\t" }
                guard scalars.first == ";" else { break }
                scalars = scalars.dropFirst().drop { $0 == " " || $0 == "\t" }
                let name = String(String.UnicodeScalarView(scalars.prefix { !"=;, \t".unicodeScalars.contains($0) }))
                scalars = scalars.dropFirst(name.unicodeScalars.count).drop { $0 == " " || $0 == "\t" }
                var value = ""
                if scalars.first == "=" {
                    scalars = scalars.dropFirst().drop { $0 == " " || $0 == "\t" }
                    if scalars.first == "\"" {
                        scalars = scalars.dropFirst()
                        var escaped = false
                        while let scalar = scalars.first {
                            scalars = scalars.dropFirst()
                            if escaped {
                                value.unicodeScalars.append(scalar)
                                escaped = false
                            } else if scalar == "\\" {
                                escaped = true
                            } else if scalar == "\"" {
                                break
                            } else {
                                value.unicodeScalars.append(scalar)
                            }
                        }
                    } else {
                        let token = scalars.prefix { !";, \t".unicodeScalars.contains($0) }
                        value = String(String.UnicodeScalarView(token))
                        scalars = scalars.dropFirst(token.count)
                    }
                }
                if name.lowercased() == "rel" {
                    relations = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                }
            }
            links.append((target, relations))
            // Anything else up to the next comma is not a parameter: skip it.
            scalars = scalars.drop { $0 != "," }
        }
        return links
    }
}
