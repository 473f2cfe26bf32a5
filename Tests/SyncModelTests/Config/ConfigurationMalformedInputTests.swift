import Testing

@testable import SyncCore

@Suite("Malformed files never trap")
struct ConfigurationMalformedInputTests {
    /// SplitMix64: a fixed seed gives the same documents on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(
        "mutations of the example are parsed or refused, every problem with its line",
        arguments: [1, 2, 3]
    )
    func mutatedExample(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        let example = Array(ConfigurationExampleTests.example)
        // The characters that make TOML structure, and the ones its value readers branch on.
        let alphabet = Array("[]{}=\"'.,#\n \t_-:\\0123456789eE+Tx")
        for _ in 0..<700 {
            var characters = example
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<characters.count, using: &generator)
                let character = alphabet.randomElement(using: &generator) ?? "x"
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: characters.remove(at: position)
                case 1: characters.insert(character, at: position)
                default: characters[position] = character
                }
            }
            do {
                _ = try SyncConfiguration.parse(String(characters), sourcePath: "syncd.toml")
            } catch {
                #expect(error.problems.allSatisfy { $0.line != nil }, "\(error)")
            }
        }
    }
}
