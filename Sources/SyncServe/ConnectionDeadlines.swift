package import NIOCore

/// How long a read API connection may take over each part of its life, and how many may be open: what keeps a few
/// hundred half-sent requests from holding the descriptors the syncs need.
package struct ConnectionLimits: Sendable, Hashable {
    /// A request head must arrive whole within this time of its first byte (nginx's `client_header_timeout`).
    package var header: TimeAmount
    /// A connection with no request in progress is closed after this long; so is one whose answer has not started
    /// this long after its request (nginx's `keepalive_timeout`).
    package var idle: TimeAmount
    /// A connection whose client reads nothing of what is sent for this long is closed (nginx's `send_timeout`,
    /// half its default: a change stream's reader that stops reading is let go within 30 s of its socket filling).
    package var send: TimeAmount
    /// How often a connection's deadlines are checked: each is met within this much after it passes.
    package var tick: TimeAmount

    package static let `default` = ConnectionLimits(
        header: .seconds(10), idle: .seconds(60), send: .seconds(30), tick: .milliseconds(2500))

    package init(header: TimeAmount, idle: TimeAmount, send: TimeAmount, tick: TimeAmount) {
        self.header = header
        self.idle = idle
        self.send = send
        self.tick = tick
    }
}

/// One connection's deadlines, as a state machine over what its bytes show: whether a request head is arriving,
/// an answer is owed, or nothing is going on. Pure: the handler (``ConnectionGuardHandler``) feeds it the bytes
/// read, the writes and the socket's writability with the time, and closes the connection when ``expired(at:)``
/// says so.
///
/// Package-wide for the `request-head` fuzz target, which checks that pieces do not change what it reads.
///
/// Heads are found by their empty line (CRLF CRLF, or bare LFs) without parsing them: the read API's requests are
/// heads alone. A body's bytes count as the next head's, which at worst gives a client that sends one the header
/// timeout instead of the idle one.
package struct ConnectionDeadlines {
    package enum Phase: Equatable, Sendable {
        /// No request in progress: the idle timeout runs.
        case idle
        /// A head's first bytes arrived, its end has not: the header timeout runs.
        case readingHead
        /// A head arrived whole and nothing was written since: the idle timeout runs, so a request nobody answers
        /// (a head the codec cannot frame) cannot hold the connection either.
        case awaitingAnswer
    }

    /// Why a connection is closed.
    enum Expiry: String, Equatable {
        case header, idle, send
    }

    let limits: ConnectionLimits
    package private(set) var phase = Phase.idle
    /// When the phase began.
    private var since: NIODeadline
    /// Since when the socket cannot take more (the client is not reading), if it cannot.
    private var unwritableSince: NIODeadline?
    /// Whether the line being read is empty so far (a CR alone leaves it empty), and how many lines of the head
    /// came before it: an empty line after at least one other ends the head; empty lines before a request line are
    /// skipped, as RFC 9112 §2.2 allows.
    private var lineIsEmpty = true
    private var lines = 0

    package init(limits: ConnectionLimits, now: NIODeadline) {
        self.limits = limits
        since = now
    }

    /// Bytes arrived.
    package mutating func read(_ bytes: UnsafeRawBufferPointer, now: NIODeadline) {
        for byte in bytes {
            if phase != .readingHead {
                phase = .readingHead
                since = now
                lineIsEmpty = true
                lines = 0
            }
            switch byte {
            case UInt8(ascii: "\n"):
                if lineIsEmpty, lines > 0 {
                    phase = .awaitingAnswer
                    since = now
                } else if !lineIsEmpty {
                    lines += 1
                }
                lineIsEmpty = true
            case UInt8(ascii: "\r"):
                break
            default:
                lineIsEmpty = false
            }
        }
    }

    /// Bytes of an answer were written. A head already arriving keeps its deadline.
    mutating func wrote(now: NIODeadline) {
        guard phase != .readingHead else { return }
        phase = .idle
        since = now
    }

    /// The socket became able, or unable, to take more bytes.
    mutating func writabilityChanged(isWritable: Bool, now: NIODeadline) {
        if isWritable {
            unwritableSince = nil
        } else if unwritableSince == nil {
            unwritableSince = now
        }
    }

    /// Which deadline has passed at `now`, if one has.
    func expired(at now: NIODeadline) -> Expiry? {
        if let unwritableSince, now - unwritableSince >= limits.send { return .send }
        switch phase {
        case .readingHead: return now - since >= limits.header ? .header : nil
        case .idle, .awaitingAnswer:
            // While the client is not reading, the send timeout is the one that runs.
            return unwritableSince == nil && now - since >= limits.idle ? .idle : nil
        }
    }
}
