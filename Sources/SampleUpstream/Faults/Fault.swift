/// The ways ``FaultUpstream`` can misbehave, one at a time: what a client of someone else's API must survive.
package enum Fault: String, CaseIterable, Sendable {
    /// The port is closed: connecting is refused.
    case refusedConnection = "refused connection"
    /// The head and half the body, then a TCP reset.
    case resetMidBody = "reset mid-body"
    /// The body one byte every 50 ms: no client with a timeout of seconds sees its end.
    case slowDrip = "slow drip"
    /// `Content-Length` announces the whole body, half of it arrives, then the connection closes.
    case truncatedWithLength = "truncated body with Content-Length"
    /// No `Content-Length`: half the body, then the connection closes, which ends an HTTP/1.1 body without length.
    case truncatedWithoutLength = "truncated body without Content-Length"
    /// `Content-Length` says half of what is written.
    case contentLengthLie = "Content-Length lie"
    /// `Content-Encoding: gzip`: 26 KiB that expand to the next generation's users padded to 4 MiB.
    case gzipBomb = "gzip bomb"
    /// The current users, with bytes that are not UTF-8 inside the first user's name.
    case invalidUTF8 = "invalid UTF-8"
    /// A 200 with a `text/html` page, as a captive portal or a misrouted proxy answers.
    case htmlOK = "HTML 200"
    /// Every request gets a 503 problem document.
    case serverErrorStorm = "5xx storm"
    /// Every request gets a 429 with `Retry-After: 1`.
    case tooManyRequestsStorm = "429 storm"
    /// `/users` redirects to `/users/loop`, which redirects back.
    case redirectLoop = "redirect loop"
    /// `/users` redirects to the same path on ``FaultUpstream/otherOrigin``, which serves the current users.
    case crossOriginRedirect = "redirect to another origin"
    /// 10,000 header fields before the next generation's users.
    case headerFlood = "header flood"
    /// One header field of 1 MiB before the next generation's users.
    case hugeHeader = "huge header"
    /// The current users and one more whose name is 100 MiB long, generated as it is sent.
    case hugeRecord = "100 MiB record"
    /// Every page links to a next one, each with one new user, forever.
    case endlessPagination = "endless pagination"
    /// Page 1 links to page 2, page 2 to page 3, page 3 back to page 1.
    case cyclicPagination = "cyclic pagination"
}
