/// The small word lists sample users are made of, in the spirit of jsonplaceholder's /users.
///
/// Every entry is plain ASCII with no quotes or backslashes; the writer escapes anyway.
enum SampleWords {
    static let firstNames = [
        "Leanne", "Ervin", "Clementine", "Patricia", "Chelsey", "Dennis", "Kurtis", "Nicholas", "Glenna", "Clementina",
        "Amelia", "Bruno", "Carmen", "Dario", "Elise", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Keiko", "Luca",
        "Maren", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Soren", "Talia", "Umar", "Vera", "Wendell", "Ximena",
        "Yusuf", "Zofia", "Anneliese", "Bartholomew", "Cornelius", "Delphine",
    ]

    static let lastNames = [
        "Graham", "Howell", "Bauch", "Lebsack", "Dietrich", "Schulist", "Weissnat", "Runolfsdottir", "Reichert",
        "DuBuque", "Okafor", "Lindqvist", "Moreau", "Castellanos", "Haddad", "Nakamura", "Petrov", "Fitzgerald",
        "Oyelaran", "Brandt", "Kowalski", "Varga", "Abernathy", "Kessler", "Montoya", "Sorensen", "Achterberg",
        "Quigley",
        "Romaguera", "Crona", "Keebler", "Considine", "Hoeger", "Stanton", "Nienow", "Corkery", "Skiles", "Yost",
        "Hackett", "Marvin",
    ]

    static let namePrefixes = ["Mrs.", "Mr.", "Ms.", "Dr."]

    static let nameSuffixes = ["Jr.", "II", "III", "IV", "V", "Sr."]

    static let cities = [
        "Gwenborough", "Wisokyburgh", "McKenziehaven", "South Elvis", "Roscoeview", "South Christy", "Howemouth",
        "Aliyaview", "Bartholomebury", "Lebsackbury", "Port Ardith", "East Mariela", "Lake Olinville", "New Dorcas",
        "West Kaydenport", "North Rosalind", "Fort Amaya", "Millerbury", "Saint Benedict", "Kirkwall Falls",
        "Harborview", "Elmstead", "Quarry Bay", "Stonehaven", "Larkspur", "Ravensworth", "Port Tamsin", "Willowmere",
        "Ashcombe", "Brightwater",
    ]

    static let streetNames = [
        "Kulas", "Victor", "Douglas", "Hoeger", "Skiles", "Norberto", "Rex", "Ellsworth", "Dayna", "Kattie", "Maple",
        "Juniper", "Harbor", "Orchard", "Chestnut", "Linden", "Foundry", "Mill", "Quarry", "Tannery", "Beacon",
        "Cypress", "Meadow", "Granite",
    ]

    static let streetSuffixes = [
        "Light", "Plains", "Extension", "Mall", "Walks", "Crossing", "Street", "Avenue", "Road", "Lane", "Terrace",
        "Parkway", "Court", "Way", "Gardens", "Row",
    ]

    static let suiteKinds = ["Apt.", "Suite"]

    static let domainWords = [
        "april", "melissa", "yesenia", "kory", "annie", "rosamond", "dana", "jasper", "karina", "birdie", "elvis",
        "conrad", "marisol", "theodora", "winifred", "ambrose", "lucinda", "percival", "ottoline", "barnaby",
    ]

    static let topLevelDomains = ["biz", "tv", "net", "org", "ca", "info", "io", "com", "me", "name"]

    static let companySuffixes = ["LLC", "Group", "Inc", "and Sons", "Partners", "Holdings"]

    static let catchPhraseAdjectives = [
        "Multi-layered", "Proactive", "Face to face", "Multi-tiered", "User-centric", "Synchronised", "Configurable",
        "Implemented", "Switchable", "Centralized", "Distributed", "Cross-platform", "Ergonomic", "Reactive",
        "Streamlined", "Robust", "Fault-tolerant", "Adaptive", "Horizontal", "Vertical",
    ]

    static let catchPhraseDescriptors = [
        "client-server", "didactic", "bifurcated", "heuristic", "full-range", "zero tolerance", "6th generation",
        "demand-driven", "optimal", "needs-based", "contextually-based", "eco-centric", "asynchronous", "modular",
        "scalable", "transitional", "composite", "stable", "hybrid", "dedicated",
    ]

    static let catchPhraseNouns = [
        "neural-net", "contingency", "toolset", "attitude", "core", "capacity", "throughput", "matrix", "framework",
        "middleware", "hierarchy", "paradigm", "interface", "alliance", "firmware", "database", "groupware",
        "methodology", "projection", "moratorium",
    ]

    static let bsVerbs = [
        "harness", "synergize", "e-enable", "transition", "revolutionize", "target", "aggregate", "iterate",
        "orchestrate", "incubate", "leverage", "cultivate", "monetize", "generate", "deploy", "empower", "engineer",
        "streamline", "reinvent", "unleash",
    ]

    static let bsAdjectives = [
        "real-time", "scalable", "end-to-end", "B2C", "one-to-one", "value-added", "bleeding-edge", "plug-and-play",
        "cross-media", "viral", "frictionless", "web-enabled", "back-end", "mission-critical", "sticky", "granular",
        "wireless", "holistic", "global", "seamless",
    ]

    static let bsNouns = [
        "e-markets", "supply-chains", "web services", "methodologies", "synergies", "infrastructures", "channels",
        "niches", "paradigms", "platforms", "metrics", "deliverables", "portals", "experiences", "architectures",
        "e-business", "eyeballs", "partnerships", "action-items", "bandwidth",
    ]
}
