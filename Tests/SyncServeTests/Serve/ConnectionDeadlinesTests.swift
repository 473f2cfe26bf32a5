import NIOCore
import Testing

@testable import SyncServe

/// Each read API connection's deadlines, decided from its bytes and an injected time.
@Suite("read API: a connection's deadlines")
struct ConnectionDeadlinesTests {
    static let limits = ConnectionLimits(
        header: .seconds(10), idle: .seconds(60), send: .seconds(30), tick: .seconds(1))
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    static func at(_ seconds: Int64) -> NIODeadline {
        start + .seconds(seconds)
    }

    static func read(_ text: String, into deadlines: inout ConnectionDeadlines, at seconds: Int64) {
        Array(text.utf8).withUnsafeBytes { deadlines.read($0, now: at(seconds)) }
    }

    @Test("a head's deadline runs from its first byte, however slowly the rest arrives")
    func slowHead() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        Self.read("GET / HTTP/1.1\r\n", into: &deadlines, at: 1)
        for second in 2...10 { Self.read("X", into: &deadlines, at: Int64(second)) }
        #expect(deadlines.phase == .readingHead)
        #expect(deadlines.expired(at: Self.at(10)) == nil)
        #expect(deadlines.expired(at: Self.at(11)) == .header)
    }

    @Test("a whole head waits for its answer; after the answer the idle deadline runs from the write")
    func answered() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        Self.read("GET / HTTP/1.1\r\nHost: a\r\n\r\n", into: &deadlines, at: 1)
        #expect(deadlines.phase == .awaitingAnswer)
        #expect(deadlines.expired(at: Self.at(30)) == nil)
        deadlines.wrote(now: Self.at(30))
        #expect(deadlines.phase == .idle)
        #expect(deadlines.expired(at: Self.at(89)) == nil)
        #expect(deadlines.expired(at: Self.at(90)) == .idle)
    }

    @Test("an answer nobody writes does not hold the connection past the idle deadline")
    func unanswered() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        Self.read("GET / HTTP/1.1\r\n\r\n", into: &deadlines, at: 5)
        #expect(deadlines.expired(at: Self.at(65)) == .idle)
    }

    @Test("a silent connection is closed at the idle deadline")
    func silent() {
        let deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        #expect(deadlines.expired(at: Self.at(59)) == nil)
        #expect(deadlines.expired(at: Self.at(60)) == .idle)
    }

    @Test("heads end at bare LFs too, in any pieces; empty lines before a request line start no head's end")
    func lineEnds() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        Self.read("GET / HTTP/1.1\nHost: a\n", into: &deadlines, at: 1)
        #expect(deadlines.phase == .readingHead)
        Self.read("\n", into: &deadlines, at: 2)
        #expect(deadlines.phase == .awaitingAnswer)
        deadlines.wrote(now: Self.at(3))
        Self.read("\r\n\r\n", into: &deadlines, at: 4)
        #expect(deadlines.phase == .readingHead)
        Self.read("GET / HTTP/1.1\r", into: &deadlines, at: 5)
        Self.read("\n\r", into: &deadlines, at: 6)
        #expect(deadlines.phase == .readingHead)
        Self.read("\n", into: &deadlines, at: 7)
        #expect(deadlines.phase == .awaitingAnswer)
    }

    @Test("pipelined heads: the next head's deadline runs from its first byte, and an answer does not restart it")
    func pipelined() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        Self.read("GET /a HTTP/1.1\r\n\r\nGET /b HT", into: &deadlines, at: 1)
        #expect(deadlines.phase == .readingHead)
        deadlines.wrote(now: Self.at(5))
        #expect(deadlines.phase == .readingHead)
        #expect(deadlines.expired(at: Self.at(11)) == .header)
    }

    @Test("a client that reads nothing is closed at the send deadline, whatever else is going on")
    func notReading() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: Self.start)
        Self.read("GET / HTTP/1.1\r\n\r\n", into: &deadlines, at: 1)
        deadlines.wrote(now: Self.at(1))
        deadlines.writabilityChanged(isWritable: false, now: Self.at(2))
        #expect(deadlines.expired(at: Self.at(31)) == nil)
        #expect(deadlines.expired(at: Self.at(32)) == .send)
        deadlines.writabilityChanged(isWritable: true, now: Self.at(20))
        #expect(deadlines.expired(at: Self.at(32)) == nil)
        // While it cannot take more, the idle deadline waits for the send one.
        deadlines.writabilityChanged(isWritable: false, now: Self.at(50))
        #expect(deadlines.expired(at: Self.at(70)) == nil)
        #expect(deadlines.expired(at: Self.at(80)) == .send)
    }
}
