import SyncCore
import SyncSupport

/// Choices derived from the input itself, so that an input always replays the same way.
typealias FuzzRandom = SplitMix64

extension SplitMix64 {
    /// Seeded with the FNV-1a hash of the input.
    init(hashing bytes: UnsafeBufferPointer<UInt8>) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        self.init(seed: hash)
    }
}
