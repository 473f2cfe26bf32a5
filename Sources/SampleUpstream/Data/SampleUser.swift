import SyncCore
import SyncSupport

/// One sample user, held as indices into ``SampleWords`` and plain numbers so that a hundred thousand of them cost no
/// string allocations; `SampleUser+JSON.swift` renders it.
///
/// Everything but the contact details follows from the id alone. The email address and phone number follow from the id
/// and the user's `version`, the number of generations that changed this user so far.
struct SampleUser {
    struct Name {
        var prefix: Int?
        var first: Int
        var last: Int
        var suffix: Int?
        var usernameStyle: Int
    }

    struct Address {
        var streetName: Int
        var streetSuffix: Int
        var suiteKind: Int
        var suiteNumber: Int
        var city: Int
        var zip: Int
        var zipExtension: Int?
        /// Latitude in ten-thousandths of a degree.
        var latitude: Int
        /// Longitude in ten-thousandths of a degree.
        var longitude: Int
    }

    struct Contact {
        var emailStyle: Int
        var emailDomain: Int
        var emailTopLevelDomain: Int
        var phoneStyle: Int
        var areaCode: Int
        var exchange: Int
        var line: Int
        var phoneExtension: Int?
    }

    struct Company {
        var style: Int
        var first: Int
        var second: Int
        var suffix: Int
        var catchPhrase: (Int, Int, Int)
        var bs: (Int, Int, Int)
    }

    var id: Int
    var version: Int
    var name: Name
    var address: Address
    var contact: Contact
    var websiteUsesLastName: Bool
    var websiteWord: Int
    var websiteTopLevelDomain: Int
    var company: Company

    init(id: Int, version: Int) {
        self.id = id
        self.version = version
        var identity = SplitMix64(key: id, stream: 1)
        name = Self.makeName(&identity)
        address = Self.makeAddress(&identity)
        websiteUsesLastName = identity.percent(50)
        websiteWord = identity.pick(SampleWords.domainWords)
        websiteTopLevelDomain = identity.pick(SampleWords.topLevelDomains)
        company = Self.makeCompany(&identity)
        var contactDetails = SplitMix64(key: id, stream: 0x100 &+ UInt64(truncatingIfNeeded: version))
        contact = Self.makeContact(&contactDetails)
    }

    /// The city this user lives in.
    var city: String {
        SampleWords.cities[address.city]
    }

    private static func makeName(_ random: inout SplitMix64) -> Name {
        Name(
            prefix: random.percent(6) ? random.pick(SampleWords.namePrefixes) : nil,
            first: random.pick(SampleWords.firstNames),
            last: random.pick(SampleWords.lastNames),
            suffix: random.percent(5) ? random.pick(SampleWords.nameSuffixes) : nil,
            usernameStyle: random.below(3)
        )
    }

    private static func makeAddress(_ random: inout SplitMix64) -> Address {
        Address(
            streetName: random.pick(SampleWords.streetNames),
            streetSuffix: random.pick(SampleWords.streetSuffixes),
            suiteKind: random.pick(SampleWords.suiteKinds),
            suiteNumber: random.inRange(100...999),
            city: random.pick(SampleWords.cities),
            zip: random.inRange(10000...99999),
            zipExtension: random.percent(60) ? random.inRange(0...9999) : nil,
            latitude: random.inRange(-900_000...900_000),
            longitude: random.inRange(-1_800_000...1_800_000)
        )
    }

    private static func makeContact(_ random: inout SplitMix64) -> Contact {
        Contact(
            emailStyle: random.below(3),
            emailDomain: random.pick(SampleWords.domainWords),
            emailTopLevelDomain: random.pick(SampleWords.topLevelDomains),
            phoneStyle: random.below(4),
            areaCode: random.inRange(200...989),
            exchange: random.inRange(0...999),
            line: random.inRange(0...9999),
            phoneExtension: random.percent(40) ? random.inRange(1...99999) : nil
        )
    }

    private static func makeCompany(_ random: inout SplitMix64) -> Company {
        Company(
            style: random.below(2),
            first: random.pick(SampleWords.lastNames),
            second: random.pick(SampleWords.lastNames),
            suffix: random.pick(SampleWords.companySuffixes),
            catchPhrase: (
                random.pick(SampleWords.catchPhraseAdjectives),
                random.pick(SampleWords.catchPhraseDescriptors),
                random.pick(SampleWords.catchPhraseNouns)
            ),
            bs: (
                random.pick(SampleWords.bsVerbs),
                random.pick(SampleWords.bsAdjectives),
                random.pick(SampleWords.bsNouns)
            )
        )
    }
}
