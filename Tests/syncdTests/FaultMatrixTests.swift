import Foundation
import SampleUpstream
import Testing

/// The fault matrix: `syncd run` against an upstream that answers well, then meets one fault, then answers well
/// again. For every fault the daemon stays up, the stored rows stay byte for byte what they were, `syncd status`
/// says in one sentence what happened, and the next good answer applies.
@Suite("syncd run: the fault matrix")
struct FaultMatrixTests {
    @Test(
        "a fault keeps the daemon up and the rows as they were, status says why, the next good answer applies",
        arguments: Fault.allCases)
    func fault(_ fault: Fault) async throws {
        try await check(fault)
    }

    private func check(_ fault: Fault) async throws {
        let upstream = try await FaultUpstream.start()
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        do {
            try await run(fault, upstream: upstream, workspace: workspace)
        } catch {
            try? await upstream.shutdown()  // the test's error is the one to report
            throw error
        }
        try await upstream.shutdown()
    }

    private func run(_ fault: Fault, upstream: FaultUpstream, workspace: CLITests.Workspace) async throws {
        let keyFile = workspace.path + "/api.key"
        try "fault-matrix-key\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        try FaultMatrix.toml(fault, url: upstream.server.baseURL + "/users", keyFile: keyFile)
            .write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let first = await FaultMatrix.message(notify) { $0.hasPrefix("STATUS=users: ") }
            #expect(first?.hasSuffix("→ version 1") == true, "\(first ?? "no sync")")
            let before = try await FaultMatrix.rows(workspace)

            try await upstream.inject(fault)
            // A poll in flight when the fault was injected still meets the healthy upstream, which answers it 304;
            // every later run meets the fault.
            let faulted = await FaultMatrix.message(notify) {
                $0.hasPrefix("STATUS=users: ") && !$0.contains(": 304 not modified")
            }
            let during = try await FaultMatrix.rows(workspace)
            #expect(during == before, "the stored rows changed")
            let status = try await FaultMatrix.status(workspace)
            if let accepted = FaultMatrix.acceptedWithoutFailure(fault), faulted?.contains(accepted) == true {
                // The fault was met without failing the run, and without changing a row (above).
                #expect(status.lastError == nil)
            } else {
                // The status line names the endpoint once; the stored error names it too.
                #expect(faulted == "STATUS=users: failed: \(status.lastError?.dropFirst("users: ".count) ?? "")")
                #expect(status.lastError?.hasPrefix("users: ") == true)
                let expected = FaultMatrix.expectedError(fault)
                #expect(status.lastError?.contains(expected) == true, "\(status.lastError ?? "no error")")
                #expect(status.lastError?.contains("\n") == false)
                #expect(status.failures >= 1)
            }
            if fault == .crossOriginRedirect {
                let leaked = upstream.otherOrigin.requests.filter {
                    $0.header("X-Api-Key") != nil || $0.header("X-Tenant") != nil
                }
                #expect(leaked.isEmpty, "the credential or a configured header went to another origin")
            }

            upstream.advance()
            try await upstream.inject(nil)
            let recovered = await FaultMatrix.message(notify) {
                $0.hasPrefix("STATUS=users: 200") && $0.contains("→ version")
            }
            #expect(recovered?.hasSuffix("→ version 2") == true, "\(recovered ?? "no recovery")")
            let after = try await FaultMatrix.rows(workspace)
            #expect(after != before)
            let healed = try await FaultMatrix.status(workspace)
            #expect(healed.failures == 0)
            #expect(healed.lastError == nil)

            signal(SIGTERM)
            let stopping = await notify.waitFor("STOPPING=1")
            #expect(stopping.last == "STOPPING=1")
        }
        #expect(result.status == 0, "\(result.standardError)")
    }
}

extension Fault: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// The configuration, the expectations and the probes of the fault matrix.
enum FaultMatrix {
    /// Small bounds so that every fault is met in well under a second, except the drip, which takes `timeout`.
    static func toml(_ fault: Fault, url: String, keyFile: String) -> String {
        // The drip takes minutes; 10 s is long enough for a healthy sync on a loaded machine, and still ends it.
        let timeout = fault == .slowDrip ? "10s" : "30s"
        let maxBody = fault == .hugeRecord ? "256MiB" : "256KiB"
        let retries = fault == .slowDrip ? 0 : 1
        return """
            database = "cache.db"

            [server]
            listen = "off"

            [[endpoint]]
            name = "users"
            url = "\(url)"
            records = "$"
            primary_key = ["id"]
            interval = "200ms"
            jitter = 0
            timeout = "\(timeout)"
            max_body = "\(maxBody)"
            retries = \(retries)
            retry_max_delay = "50ms"
            pagination = { type = "link", max_pages = 5 }
            auth = { type = "header", name = "X-Api-Key", value_file = "\(keyFile)" }
            headers = { X-Tenant = "tenant-1" }

            [endpoint.columns]
            id = { path = "id", type = "integer" }
            name = "name"
            city = "address.city"

            """
    }

    /// What a run that meets the fault and does not fail says, for the faults where either way is right: a redirect
    /// to another origin followed without the credentials.
    static func acceptedWithoutFailure(_ fault: Fault) -> String? {
        switch fault {
        case .crossOriginRedirect: "unchanged at version 1"
        default: nil
        }
    }

    /// What `syncd status` must say about the fault, in part.
    static func expectedError(_ fault: Fault) -> String {
        switch fault {
        case .refusedConnection: "Connection refused"
        case .resetMidBody: "reset"
        case .slowDrip: "no complete response within 10s"
        case .truncatedWithLength: "the connection closed before the whole body arrived"
        case .truncatedWithoutLength: "truncated"
        case .contentLengthLie: "truncated"
        case .gzipBomb: "max_body"
        case .invalidUTF8: "UTF-8"
        case .htmlOK: "page 1: the response is text/html, not JSON: at byte 0 (line 1, column 1) expected a value"
        case .serverErrorStorm: "503"
        case .tooManyRequestsStorm: "429"
        case .redirectLoop: "cycle"
        case .crossOriginRedirect: "another origin"
        case .headerFlood: "not valid HTTP"
        case .hugeHeader: "not valid HTTP"
        case .hugeRecord: "is larger than max_record (16 MiB)"
        case .endlessPagination: "max_pages (5)"
        case .cyclicPagination: "loops"
        }
    }

    /// Every stored row, every column, and `_raw` in hex: equal strings are byte-identical rows.
    static func rows(_ workspace: CLITests.Workspace) async throws -> String {
        let dump = try await workspace.run([
            "sql", "SELECT *, hex(_raw) AS raw_hex FROM users ORDER BY id", "--format", "csv",
        ])
        #expect(dump.status == 0, "\(dump.standardError)")
        return dump.standardOutput
    }

    struct Status {
        var lastError: String?
        var failures: Int
    }

    static func status(_ workspace: CLITests.Workspace) async throws -> Status {
        let result = try await workspace.run(["status", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        let users = try #require(rows?.first { $0["endpoint"] as? String == "users" })
        return Status(lastError: users["last_error"] as? String, failures: users["failures"] as? Int ?? -1)
    }

    /// The first message that `matches`, or nil after 150 others: with runs every 200 ms, a safety net of about
    /// 30 s that fails the test instead of hanging it.
    static func message(_ notify: NotifyListener, matching matches: (String) -> Bool) async -> String? {
        for _ in 0..<150 {
            guard let message = await notify.next() else { return nil }
            if matches(message) { return message }
        }
        return nil
    }
}
