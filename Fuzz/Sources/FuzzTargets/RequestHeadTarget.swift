import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import SyncServe

/// The read API's fast path reading request heads off the wire, against NIO's HTTP/1 decoder, which reads every
/// request the fast path does not.
///
/// Input: the bytes a client sends. Where ``RequestHead/end(in:from:)`` finds the head's end is the first CRLF CRLF,
/// wherever its search resumes. When ``RequestHead`` reads the head, NIO's decoder, given the head and then a second
/// request, reads the head as one whole request, with the same method, target, first `Host` and kept fields, and
/// the second request after it: the two agree on where each request ends, which is what lets the fast path hand
/// the decoder whole requests.
enum RequestHeadTarget {
    static let second = "GET /second HTTP/1.1\r\n\r\n"

    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let bytes = UnsafeRawBufferPointer(input)
        try checkDeadlines(bytes)
        let naive = firstEnd(bytes)
        let bareLineFeed = bytes.indices.contains { bytes[$0] == 10 && ($0 == 0 || bytes[$0 - 1] != 13) }
        for searched in [0, bytes.count / 2, bytes.count] {
            let tail = bytes.indices.dropFirst(max(0, searched - 1))
            let expected = tail.contains { bytes[$0] == 10 && ($0 == 0 || bytes[$0 - 1] != 13) }
            try require(
                RequestHead.hasBareLineFeed(in: bytes, from: searched) == expected,
                "a bare LF from \(searched) is \(!expected), not \(expected)")
        }
        try require(RequestHead.hasBareLineFeed(in: bytes, from: 0) == bareLineFeed, "the bare LF check disagrees")
        for searched in [0, (naive ?? bytes.count) / 2, max((naive ?? bytes.count) - 1, 0)] {
            let end = RequestHead.end(in: bytes, from: searched)
            try require(
                end == naive,
                "the head's end from \(searched) is \(String(describing: end)), not \(String(describing: naive))")
        }
        guard let naive, let head = RequestHead(UnsafeRawBufferPointer(rebasing: bytes[..<naive])) else { return }
        try require(naive <= RequestHead.maxLength, "a head of \(naive) bytes was read")
        let parts = try decoded(Array(bytes[..<naive]) + Array(second.utf8))
        guard parts.count == 4, case .head(let first) = parts[0], case .end(nil) = parts[1],
            case .head(let next) = parts[2], case .end(nil) = parts[3]
        else {
            throw FuzzFailure("NIO read \(parts.count) parts, not a head, its end, the second head, its end: \(parts)")
        }
        try require(next.uri == "/second", "the second request's target is \(next.uri.debugDescription)")
        try require((first.method == .GET) == head.isGET, "NIO read the method \(first.method), isGET \(head.isGET)")
        try require(
            first.uri == head.target,
            "NIO read the target \(first.uri.debugDescription), not \(head.target.debugDescription)")
        try require(first.version == .http1_1, "NIO read the version \(first.version)")
        let hosts = first.headers["host"]
        try require(hosts.first == head.authority, "NIO read Host \(hosts), not \(String(describing: head.authority))")
        // A Connection of keep-alive tokens alone, as NIO read it, is the fast path's.
        let keepAliveOnly = first.headers["connection"].allSatisfy { value in
            value.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { element in
                var bytes = Array(element.utf8)
                while let byte = bytes.first, byte == 0x20 || byte == 0x09 { bytes.removeFirst() }
                while let byte = bytes.last, byte == 0x20 || byte == 0x09 { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self).lowercased() == "keep-alive"
            }
        }
        // A head without a Host, or with two, is the router's to refuse (``RequestRefusalHandler``).
        let routerOnly = hosts.count != 1 || !keepAliveOnly || first.headers.contains(name: "expect")
        try require(routerOnly == head.needsRouter, "NIO read \(first.headers), needsRouter \(head.needsRouter)")
        let kept = first.headers.compactMap { field in
            HTTPField.Name(field.name).flatMap { name in
                [.authorization, .ifNoneMatch, .ifModifiedSince, HTTPField.Name("Prefer")].contains(name)
                    ? HTTPField(name: name, value: field.value) : nil
            }
        }
        try require(HTTPFields(kept) == head.fields, "NIO read the kept fields \(kept), not \(head.fields)")
    }

    /// A connection's deadlines (``ConnectionDeadlines``) read the same phase from the bytes whatever pieces they
    /// arrive in: the bytes whole, split at two points, and a byte at a time.
    static func checkDeadlines(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let now = NIODeadline.uptimeNanoseconds(0)
        var whole = ConnectionDeadlines(limits: .default, now: now)
        whole.read(bytes, now: now)
        var split = ConnectionDeadlines(limits: .default, now: now)
        let cuts = [0, bytes.count / 3, (bytes.count * 2) / 3, bytes.count]
        for (start, end) in zip(cuts, cuts.dropFirst()) {
            split.read(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), now: now)
        }
        var bytewise = ConnectionDeadlines(limits: .default, now: now)
        for index in bytes.indices {
            bytewise.read(UnsafeRawBufferPointer(rebasing: bytes[index..<index + 1]), now: now)
        }
        try require(
            whole.phase == split.phase && whole.phase == bytewise.phase,
            "the phase read whole is \(whole.phase), in three pieces \(split.phase), a byte at a time \(bytewise.phase)"
        )
        // A head the fast path reads ends where the deadlines see a head end: they wait for its answer.
        if let end = firstEnd(bytes), RequestHead(UnsafeRawBufferPointer(rebasing: bytes[..<end])) != nil {
            var head = ConnectionDeadlines(limits: .default, now: now)
            head.read(UnsafeRawBufferPointer(rebasing: bytes[..<end]), now: now)
            try require(head.phase == .awaitingAnswer, "a whole head left the deadlines \(head.phase)")
        }
    }

    /// Just past the first CRLF CRLF, found the plain way.
    static func firstEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (3..<bytes.count).first { index in
            bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10
        }.map { $0 + 1 }
    }

    /// What NIO's decoder, as Hummingbird sets it up, reads of `bytes`.
    static func decoded(_ bytes: [UInt8]) throws(FuzzFailure) -> [HTTPServerRequestPart] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(HTTPRequestDecoder()))
        defer { _ = try? channel.finish() }
        var parts: [HTTPServerRequestPart] = []
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
        } catch {
            throw FuzzFailure("NIO's decoder refused a head the fast path read: \(error)")
        }
        return parts
    }
}
