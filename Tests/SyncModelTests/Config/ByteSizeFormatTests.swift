import SyncSupport
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// Limits are printed exactly, in the unit that writes them shortest, so `max_body = "1MB"` is reported as
/// `1 MB`, not a rounded `976.6 KiB`.
@Suite("ByteSize.format")
struct ByteSizeFormatTests {
    @Test(
        "a size prints exactly and parses back",
        arguments: [
            (1_000_000, "1 MB"), (16 << 20, "16 MiB"), (1_500, "1500 B"), (2_048, "2 KiB"), (3_000, "3 kB"),
            (0, "0 B"),
        ])
    func exact(_ bytes: Int, _ text: String) {
        #expect(ByteSize.format(bytes) == text)
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test("max_body = \"1MB\" is reported as 1 MB")
    func maxBody() {
        #expect(FetchError.bodyTooLarge(limit: 1_000_000).description == "the body is larger than max_body (1 MB)")
    }
}
