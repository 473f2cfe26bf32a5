import Testing

@testable import SyncCore
@testable import SyncSupport

/// One redaction for every URL syncd stores, logs, prints or serves.
@Suite("URL redaction")
struct URLRedactionTests {
    @Test(
        "user information and secret-named parameters are redacted, everything else kept byte for byte",
        arguments: [
            ("https://ann:pw@example.com/x", "https://REDACTED@example.com/x"),
            ("https://token@example.com", "https://REDACTED@example.com"),
            ("https://example.com/x?api_key=abc&page=2", "https://example.com/x?api_key=REDACTED&page=2"),
            (
                "https://example.com/?access_token=a&ApiKey=b&PASSWORD=c",
                "https://example.com/?access_token=REDACTED&ApiKey=REDACTED&PASSWORD=REDACTED"
            ),
            (
                "https://s3.example.com/o?X-Amz-Signature=f00&X-Amz-Date=1",
                "https://s3.example.com/o?X-Amz-Signature=REDACTED&X-Amz-Date=1"
            ),
            ("https://example.com/?client_secret=s;a=1", "https://example.com/?client_secret=REDACTED;a=1"),
            ("https://example.com/?api%5Fkey=abc", "https://example.com/?api%5Fkey=REDACTED"),
            ("https://example.com/x#access_token=abc&x=1", "https://example.com/x#access_token=REDACTED&x=1"),
            ("https://example.com/key/token?q=%20a&b", "https://example.com/key/token?q=%20a&b"),
            ("https://example.com/a@b?c=d", "https://example.com/a@b?c=d"),
            ("file:///var/data/users.json", "file:///var/data/users.json"),
            ("https://u:p@example.com/?token=", "https://REDACTED@example.com/?token=REDACTED"),
            (
                "https://example.com/caf\u{E9}?t\u{F6}ken=1&\u{1F600}=2",
                "https://example.com/caf\u{E9}?t\u{F6}ken=1&\u{1F600}=2"
            ),
            ("https://example.com/\u{1F600}?my_token=\u{E9}&a", "https://example.com/\u{1F600}?my_token=REDACTED&a"),
            // A delimiter with a combining mark is another character, as everywhere in Swift: not a delimiter.
            ("https://example.com/p?\u{301}token=1", "https://example.com/p?\u{301}token=1"),
            ("https://example.com/p?a=1&\u{301}token=1", "https://example.com/p?a=1&\u{301}token=1"),
            ("https://example.com/?&;#", "https://example.com/?&;#"),
            ("", ""),
        ])
    func redacts(url: String, expected: String) {
        #expect(URLRedaction.redact(url) == expected)
    }

    @Test("the query credential's parameter is redacted whatever its name")
    func queryCredential() {
        #expect(
            URLRedaction.redact("https://example.com/x?k=abc&page=2", queryCredential: "k")
                == "https://example.com/x?k=REDACTED&page=2")
    }
}
