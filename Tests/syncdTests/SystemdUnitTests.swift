import Foundation
import Testing

/// contrib/systemd: the unit passes `systemd-analyze verify` with no output at all, and the example configuration
/// passes `syncd check-config`.
///
/// `systemd-analyze verify` needs no running systemd, but it prints a warning and still exits 0 for an unknown key
/// (a typo such as `NoNewPrivilegs=`), so any output fails the test. It also requires ExecStart='s binary to exist:
/// the test verifies a copy in a temporary directory whose `ExecStart=/usr/local/bin/syncd` reads `ExecStart=/bin/true`
/// (same arguments); every other line is the shipped unit's. ExecReload='s /bin/kill must exist too (Debian: procps).
@Suite("contrib/systemd")
struct SystemdUnitTests {
    private static let contrib = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("contrib/systemd")

    private static let installedExecStart = "\nExecStart=/usr/local/bin/syncd "

    /// `systemd-analyze`'s path, or `nil` (after recording an issue: the check must not pass by being skipped).
    private static func systemdAnalyze() -> String? {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"] {
            let path = directory + "/systemd-analyze"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        let message =
            "systemd-analyze is not installed, so contrib/systemd/syncd.service cannot be checked: install it with "
            + "`apt-get install -y systemd procps` (.ci/run does)"
        Issue.record(Comment(rawValue: message))
        return nil
    }

    /// Runs `systemd-analyze verify` on `unit` saved as syncd.service in a new temporary directory.
    private static func verify(_ unit: String) async throws -> SyncdProcess.Result? {
        guard let analyzer = systemdAnalyze() else { return nil }
        var template = Array((NSTemporaryDirectory() + "syncd-unit-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        let directory = try #require(made)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: /tmp is cleaned anyway
        let path = directory + "/syncd.service"
        try unit.write(toFile: path, atomically: true, encoding: .utf8)
        return try await SyncdProcess.shell("'\(analyzer)' verify '\(path)'")
    }

    /// The shipped unit, with ExecStart's binary replaced by /bin/true.
    private static func unitToVerify() throws -> String {
        let unit = try String(contentsOf: contrib.appendingPathComponent("syncd.service"), encoding: .utf8)
        try #require(unit.components(separatedBy: installedExecStart).count == 2, "one ExecStart=/usr/local/bin/syncd")
        return unit.replacingOccurrences(of: installedExecStart, with: "\nExecStart=/bin/true ")
    }

    @Test("systemd-analyze verify accepts syncd.service and prints nothing")
    func verifyUnit() async throws {
        guard let result = try await Self.verify(try Self.unitToVerify()) else { return }
        #expect(result.status == 0)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "")
    }

    @Test("the check catches what verify only warns about: a misspelt key is output, even with exit status 0")
    func verifyCatchesTypos() async throws {
        let unit = try Self.unitToVerify().replacingOccurrences(
            of: "\nNoNewPrivileges=yes\n", with: "\nNoNewPrivilegs=yes\n")
        guard let result = try await Self.verify(unit) else { return }
        #expect(result.standardError.contains("NoNewPrivilegs"))
    }

    @Test("the unit is Type=notify and runs `syncd run` with the example configuration's installed path")
    func unitShape() throws {
        let unit = try String(contentsOf: Self.contrib.appendingPathComponent("syncd.service"), encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for expected in [
            "Type=notify", "ExecStart=/usr/local/bin/syncd run --config /etc/syncd/syncd.toml",
            "ExecReload=/bin/kill -HUP $MAINPID", "DynamicUser=yes", "StateDirectory=syncd", "WatchdogSec=60",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    @Test("syncd check-config accepts the example configuration")
    func exampleConfiguration() async throws {
        let config = Self.contrib.appendingPathComponent("syncd.toml").path
        let result = try await SyncdProcess.run(["check-config", "--config", config])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("\(config) is valid: 2 endpoints\n"))
    }
}
