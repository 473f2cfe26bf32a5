import Foundation
import Testing

/// The read API's curl block (in the README or the guide), run against `syncd demo` as a reader would paste it: the address is the demo's, and the
/// ETag placeholder the one the first command printed.
@Suite("README examples: curl")
struct READMECurlTests {
    @Test("the read API's curl examples give a 200 with an ETag, a 304 for it, a filtered list and a change feed")
    func curlBlock() async throws {
        // The block, wherever it is: the README or a page of the guide.
        let files = try GuideFiles.all()
        let found = files.lazy.compactMap { file in
            file.lines.firstIndex { $0.hasPrefix("curl -si http://127.0.0.1:8787/v1/endpoints/") }.map { (file, $0) }
        }.first
        let (file, first) = try #require(found, "no file of the guide holds the read API's curl block")
        let lines = file.lines
        let end = try #require(lines[first...].firstIndex(of: "```"), "\(file.path):\(first + 1)")
        let commands = Array(lines[first..<end])
        #expect(commands.count == 4, "\(file.path):\(first + 1)")

        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let arguments = ["demo", "--directory", workspace.path + "/demo", "--listen", "127.0.0.1:0"]
        let result = try await DaemonProcess.run(arguments, directory: workspace.path) {
            notify, signal in
            let messages = await notify.waitFor("READY=1")
            // READY=1 comes with the address the read API listens on.
            let status = try #require(messages.last?.split(separator: "\n").first { $0.hasPrefix("STATUS=") })
            let listening = try #require(status.split(separator: " read API on ").last)
            let address = "http://" + listening
            func localized(_ command: String) -> String {
                command.replacingOccurrences(of: "http://127.0.0.1:8787", with: address)
            }

            let record = try await SyncdProcess.shell(localized(commands[0]))
            #expect(record.standardOutput.hasPrefix("HTTP/1.1 200 OK"), "\(record.standardOutput)")
            let etag = try #require(
                record.standardOutput.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag: ") }?
                    .dropFirst("etag: ".count))
            let revalidate = localized(commands[1]).replacingOccurrences(of: "\"9f2c….3\"", with: String(etag))
            let notModified = try await SyncdProcess.shell(revalidate)
            #expect(notModified.standardOutput.hasPrefix("HTTP/1.1 304 Not Modified"), "\(revalidate)")

            let list = try await SyncdProcess.shell(localized(commands[2]))
            let rows = try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]]
            #expect(rows != nil, "\(list.standardOutput)")
            #expect(rows?.allSatisfy { Set($0.keys) == ["id", "name"] } == true)

            let feed = try await SyncdProcess.shell(localized(commands[3]))
            let changes = try JSONSerialization.jsonObject(with: Data(feed.standardOutput.utf8)) as? [String: Any]
            #expect(changes?["version"] is Int, "\(feed.standardOutput)")
            #expect(changes?["changed"] is [Any] && changes?["deleted"] is [Any])
            signal(SIGINT)
        }
        #expect(result.status == 0, "\(result.standardError)")
    }

}
