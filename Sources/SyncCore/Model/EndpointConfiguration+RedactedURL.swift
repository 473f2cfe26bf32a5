extension EndpointConfiguration {
    /// The endpoint's URL as it may be stored, logged, printed and served (``URLRedaction``).
    package var redactedURL: String {
        var queryCredential: String?
        if case .query(let name, _)? = auth?.kind { queryCredential = name }
        return URLRedaction.redact(url, queryCredential: queryCredential)
    }
}
