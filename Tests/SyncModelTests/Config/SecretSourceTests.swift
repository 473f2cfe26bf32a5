import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncModel

@Suite("Secrets from the environment, files and systemd credentials")
struct SecretSourceTests {
    static let secret = "s3cr3t-Zq9"

    @Test("an environment variable")
    func environment() throws {
        #expect(try SecretSource.environment("TOKEN").resolve(environment: ["TOKEN": Self.secret]) == Self.secret)
        let missing = try #require(throws: ConfigurationError.self) {
            try SecretSource.environment("TOKEN").resolve(environment: [:])
        }
        #expect(missing.code == .notSet)
        #expect(missing.description == "environment variable TOKEN is not set")
        let empty = try #require(throws: ConfigurationError.self) {
            try SecretSource.environment("TOKEN").resolve(environment: ["TOKEN": ""])
        }
        #expect(empty.description == "environment variable TOKEN is empty")
    }

    @Test("a file, without one trailing newline")
    func file() throws {
        try withTemporaryDirectory { directory in
            let lf = try writeFile(Self.secret + "\n", named: "lf", in: directory)
            let crlf = try writeFile(Self.secret + "\r\n", named: "crlf", in: directory)
            let bare = try writeFile(Self.secret, named: "bare", in: directory)
            for path in [lf, crlf, bare] {
                #expect(try SecretSource.file(path).resolve(environment: [:]) == Self.secret)
            }
            let missing = try #require(throws: ConfigurationError.self) {
                try SecretSource.file(directory + "/nope").resolve(environment: [:])
            }
            #expect(missing.code == .fileNotFound)
            #expect(missing.description == "secret file \(directory)/nope: no such file")
            let onlyNewline = try writeFile("\n", named: "empty", in: directory)
            let empty = try #require(throws: ConfigurationError.self) {
                try SecretSource.file(onlyNewline).resolve(environment: [:])
            }
            #expect(empty.description == "secret file \(onlyNewline) is empty")
        }
    }

    @Test("a file longer than 64 KiB is refused after 64 KiB")
    func longFile() throws {
        try withTemporaryDirectory { directory in
            let long = try writeFile(String(repeating: "x", count: 65 << 10), named: "long", in: directory)
            let error = try #require(throws: ConfigurationError.self) {
                try SecretSource.file(long).resolve(environment: [:])
            }
            #expect(error.code == .unreadable)
            #expect(error.description == "secret file \(long): is larger than 64 KiB")
        }
    }

    @Test(
        "a FIFO, a device, a socket or a directory is refused at once, opened without waiting for a writer",
        arguments: ["fifo", "/dev/zero", "/dev/null", "socket", "directory"])
    func notRegular(kind: String) throws {
        try withTemporaryDirectory { directory in
            let path: String
            let reason: String
            switch kind {
            case "fifo":
                path = directory + "/token"
                #expect(mkfifo(path, 0o600) == 0)
                reason = "is a FIFO, not a regular file"
            case "socket":
                path = directory + "/token.sock"
                try leaveStaleSocket(at: path)
                reason = "is a socket or a device, not a regular file"
            case "directory":
                path = directory
                reason = "is a directory, not a file"
            default:
                path = kind
                reason = "is a device, not a regular file"
            }
            let error = try #require(throws: ConfigurationError.self) {
                try SecretSource.file(path).resolve(environment: [:])
            }
            #expect(error.code == .unreadable)
            #expect(error.description == "secret file \(path): \(reason)")
        }
    }

    @Test("a systemd credential in $CREDENTIALS_DIRECTORY")
    func credential() throws {
        try withTemporaryDirectory { directory in
            _ = try writeFile(Self.secret + "\n", named: "users_token", in: directory)
            let environment = ["CREDENTIALS_DIRECTORY": directory]
            #expect(try SecretSource.credential("users_token").resolve(environment: environment) == Self.secret)
            let missing = try #require(throws: ConfigurationError.self) {
                try SecretSource.credential("other").resolve(environment: environment)
            }
            #expect(missing.code == .fileNotFound)
            #expect(missing.description == #"credential "other": no such file in $CREDENTIALS_DIRECTORY"#)
            let noDirectory = try #require(throws: ConfigurationError.self) {
                try SecretSource.credential("users_token").resolve(environment: [:])
            }
            #expect(noDirectory.code == .noCredentialsDirectory)
            #expect(
                noDirectory.description
                    == #"credential "users_token": $CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit provides it)"#
            )
        }
    }

    @Test("no error ever shows the secret")
    func secretNeverInErrors() throws {
        try withTemporaryDirectory { directory in
            let twoLines = try writeFile(Self.secret + "\nsecond line\n", named: "two", in: directory)
            let carriageReturn = try writeFile(Self.secret + "\r" + Self.secret, named: "cr", in: directory)
            let notUTF8 = directory + "/latin1"
            try Data(Self.secret.utf8 + [0xE9]).write(to: URL(fileURLWithPath: notUTF8))
            let attempts: [(SecretSource, [String: String])] = [
                (.environment("TOKEN"), ["TOKEN": Self.secret + "\n" + Self.secret]),
                (.environment("TOKEN"), ["TOKEN": Self.secret + "\u{0}"]),
                (.environment("OTHER"), ["TOKEN": Self.secret]),
                (.file(twoLines), [:]),
                (.file(carriageReturn), [:]),
                (.file(notUTF8), [:]),
                (.credential("two"), ["CREDENTIALS_DIRECTORY": directory]),
            ]
            for (source, environment) in attempts {
                let error = try #require(throws: ConfigurationError.self) {
                    try source.resolve(environment: environment)
                }
                #expect(!error.description.contains(Self.secret))
                #expect(!String(reflecting: error).contains(Self.secret))
            }
            let invalid = try #require(throws: ConfigurationError.self) {
                try SecretSource.file(twoLines).resolve(environment: [:])
            }
            #expect(invalid.code == .invalid)
            #expect(invalid.description == "secret file \(twoLines) holds a line break or NUL")
        }
    }

    @Test("the configuration holds where secrets are, never their values")
    func configurationHoldsSources() throws {
        let text = """
            [[endpoint]]
            name = "a"
            url = "https://example.com"
            auth = { type = "bearer", token_env = "\(Self.secret)" }
            """
        let configuration = try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        let auth = try #require(configuration.plans.first?.auth)
        #expect(auth.secret == .environment(Self.secret))
        #expect(auth.kindName == "bearer")
    }
}
