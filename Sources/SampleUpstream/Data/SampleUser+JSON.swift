extension SampleUser {
    /// Appends this user as a pretty-printed JSON object (two-space indents, as jsonplaceholder serves it), starting
    /// at the current position, which is already indented by `indent`. A `stamp` comes first, as `"stamp": N`.
    func write(to json: inout JSONBytes, indent: Int, stamp: Int? = nil) {
        let inner = indent + 2
        json.raw("{")
        if let stamp {
            json.key("stamp", indent: inner)
            json.integer(stamp)
            json.raw(",")
        }
        json.key("id", indent: inner)
        json.integer(id)
        json.raw(",")
        json.key("name", indent: inner)
        writeName(to: &json)
        json.raw(",")
        json.key("username", indent: inner)
        writeUsername(to: &json)
        json.raw(",")
        json.key("email", indent: inner)
        writeEmail(to: &json)
        json.raw(",")
        json.key("address", indent: inner)
        writeAddress(to: &json, indent: inner)
        json.raw(",")
        json.key("phone", indent: inner)
        writePhone(to: &json)
        json.raw(",")
        json.key("website", indent: inner)
        writeWebsite(to: &json)
        json.raw(",")
        json.key("company", indent: inner)
        writeCompany(to: &json, indent: inner)
        json.newline(indent: indent)
        json.raw("}")
    }

    private var firstName: String { SampleWords.firstNames[name.first] }
    private var lastName: String { SampleWords.lastNames[name.last] }

    private func writeName(to json: inout JSONBytes) {
        json.openString()
        if let prefix = name.prefix {
            json.stringPiece(SampleWords.namePrefixes[prefix])
            json.raw(" ")
        }
        json.stringPiece(firstName)
        json.raw(" ")
        json.stringPiece(lastName)
        if let suffix = name.suffix {
            json.raw(" ")
            json.stringPiece(SampleWords.nameSuffixes[suffix])
        }
        json.closeString()
    }

    /// Ends in the id, so usernames are unique: `Leanne_Graham1`, `Ervin.Howell2`, `Clementine3`.
    private func writeUsername(to json: inout JSONBytes) {
        json.openString()
        json.stringPiece(firstName)
        switch name.usernameStyle {
        case 0:
            json.raw("_")
            json.stringPiece(lastName)
        case 1:
            json.raw(".")
            json.stringPiece(lastName)
        default:
            break
        }
        json.digits(id)
        json.closeString()
    }

    /// `leanne.graham1@april.biz`; a user changed `version` times gets `+version` before the `@`.
    private func writeEmail(to json: inout JSONBytes) {
        json.openString()
        json.stringPiece(firstName, lowercased: true)
        switch contact.emailStyle {
        case 0:
            json.raw(".")
            json.stringPiece(lastName, lowercased: true)
        case 1:
            json.raw("_")
            json.stringPiece(lastName, lowercased: true)
        default:
            break
        }
        json.digits(id)
        if version > 0 {
            json.raw("+")
            json.digits(version)
        }
        json.raw("@")
        json.stringPiece(SampleWords.domainWords[contact.emailDomain])
        json.raw(".")
        json.stringPiece(SampleWords.topLevelDomains[contact.emailTopLevelDomain])
        json.closeString()
    }

    private func writeAddress(to json: inout JSONBytes, indent: Int) {
        let inner = indent + 2
        json.raw("{")
        json.key("street", indent: inner)
        json.openString()
        json.stringPiece(SampleWords.streetNames[address.streetName])
        json.raw(" ")
        json.stringPiece(SampleWords.streetSuffixes[address.streetSuffix])
        json.closeString()
        json.raw(",")
        json.key("suite", indent: inner)
        json.openString()
        json.stringPiece(SampleWords.suiteKinds[address.suiteKind])
        json.raw(" ")
        json.digits(address.suiteNumber)
        json.closeString()
        json.raw(",")
        json.key("city", indent: inner)
        json.string(city)
        json.raw(",")
        json.key("zipcode", indent: inner)
        json.openString()
        json.digits(address.zip, width: 5)
        if let zipExtension = address.zipExtension {
            json.raw("-")
            json.digits(zipExtension, width: 4)
        }
        json.closeString()
        json.raw(",")
        json.key("geo", indent: inner)
        json.raw("{")
        json.key("lat", indent: inner + 2)
        writeCoordinate(address.latitude, to: &json)
        json.raw(",")
        json.key("lng", indent: inner + 2)
        writeCoordinate(address.longitude, to: &json)
        json.newline(indent: inner)
        json.raw("}")
        json.newline(indent: indent)
        json.raw("}")
    }

    /// A coordinate as a string with four decimals, as jsonplaceholder writes them: `"-37.3159"`.
    private func writeCoordinate(_ tenThousandths: Int, to json: inout JSONBytes) {
        json.openString()
        if tenThousandths < 0 {
            json.raw("-")
        }
        let magnitude = Int(tenThousandths.magnitude)
        json.digits(magnitude / 10_000)
        json.raw(".")
        json.digits(magnitude % 10_000, width: 4)
        json.closeString()
    }

    /// `1-770-736-8031 x56442`, `770-736-8031`, `(770)736-8031` or `770.736.8031`.
    private func writePhone(to json: inout JSONBytes) {
        json.openString()
        switch contact.phoneStyle {
        case 0:
            json.raw("1-")
            writePhoneNumber(to: &json, separator: "-")
        case 1:
            writePhoneNumber(to: &json, separator: "-")
        case 2:
            json.raw("(")
            json.digits(contact.areaCode, width: 3)
            json.raw(")")
            json.digits(contact.exchange, width: 3)
            json.raw("-")
            json.digits(contact.line, width: 4)
        default:
            writePhoneNumber(to: &json, separator: ".")
        }
        if let phoneExtension = contact.phoneExtension {
            json.raw(" x")
            json.digits(phoneExtension)
        }
        json.closeString()
    }

    private func writePhoneNumber(to json: inout JSONBytes, separator: StaticString) {
        json.digits(contact.areaCode, width: 3)
        json.raw(separator)
        json.digits(contact.exchange, width: 3)
        json.raw(separator)
        json.digits(contact.line, width: 4)
    }

    private func writeWebsite(to json: inout JSONBytes) {
        json.openString()
        if websiteUsesLastName {
            json.stringPiece(lastName, lowercased: true)
        } else {
            json.stringPiece(SampleWords.domainWords[websiteWord])
        }
        json.raw(".")
        json.stringPiece(SampleWords.topLevelDomains[websiteTopLevelDomain])
        json.closeString()
    }

    private func writeCompany(to json: inout JSONBytes, indent: Int) {
        let inner = indent + 2
        json.raw("{")
        json.key("name", indent: inner)
        json.openString()
        json.stringPiece(SampleWords.lastNames[company.first])
        if company.style == 0 {
            json.raw("-")
            json.stringPiece(SampleWords.lastNames[company.second])
        } else {
            json.raw(" ")
            json.stringPiece(SampleWords.companySuffixes[company.suffix])
        }
        json.closeString()
        json.raw(",")
        json.key("catchPhrase", indent: inner)
        writeWords(
            SampleWords.catchPhraseAdjectives[company.catchPhrase.0],
            SampleWords.catchPhraseDescriptors[company.catchPhrase.1],
            SampleWords.catchPhraseNouns[company.catchPhrase.2],
            to: &json
        )
        json.raw(",")
        json.key("bs", indent: inner)
        writeWords(
            SampleWords.bsVerbs[company.bs.0],
            SampleWords.bsAdjectives[company.bs.1],
            SampleWords.bsNouns[company.bs.2],
            to: &json
        )
        json.newline(indent: indent)
        json.raw("}")
    }

    private func writeWords(_ first: String, _ second: String, _ third: String, to json: inout JSONBytes) {
        json.openString()
        json.stringPiece(first)
        json.raw(" ")
        json.stringPiece(second)
        json.raw(" ")
        json.stringPiece(third)
        json.closeString()
    }
}
