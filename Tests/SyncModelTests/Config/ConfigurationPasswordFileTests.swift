import SyncTesting
import Testing

@testable import SyncCore

@Suite("configuration: password_file")
struct ConfigurationPasswordFileTests {
    @Test("password_file is a path, made absolute against the configuration's folder")
    func resolved() throws {
        let configuration = try SyncConfiguration.parse(
            "database = \"postgresql://syncd@db.example/cache\"\npassword_file = \"secrets/pg.pass\"",
            sourcePath: "/etc/syncd/syncd.toml")
        #expect(configuration.passwordFile == "/etc/syncd/secrets/pg.pass")
        #expect(try SyncConfiguration.parse("", sourcePath: "syncd.toml").passwordFile == nil)
    }

    @Test("password_file with an SQLite database, or one that is no path, is refused naming the line")
    func refused() {
        #expect(
            configurationProblems("password_file = \"pg.pass\"\ndatabase = \"cache.db\"") == [
                "syncd.toml:1: password_file is the PostgreSQL database's password, and database is an SQLite file"
            ])
        #expect(
            configurationProblems("password_file = 3") == [
                "syncd.toml:1: password_file must be a path to a file holding the PostgreSQL database's password"
            ])
    }
}
