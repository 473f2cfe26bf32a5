extension EndpointConfiguration {
    /// The endpoint's URL as it may be stored, logged, printed and served (``URLRedaction``).
    package var redactedURL: String {
        URLRedaction.redact(url, queryCredential: auth?.queryName)
    }
}
