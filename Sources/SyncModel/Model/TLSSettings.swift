/// How HTTPS connections are trusted and how they identify the client: a private certificate authority
/// (`ca_file`, `ca_only`) and a client certificate for mutual TLS (`client_certificate_file` + `client_key_file`, or
/// their `*_credential` forms). The same value serves a ``SyncEndpoint`` and an ``APIRequest``.
///
/// TLS is always verified, certificate and host name: there is no switch to turn that off. A CA file's certificates
/// are added to the system's trust roots, or replace them with ``caOnly``. The files are read, and checked (PEM, the
/// key matching the certificate), by `syncd check-config` and when syncd.toml is loaded, and again by the first
/// request that needs them; a process keeps what it read until it ends.
///
/// ```swift
/// endpoint.tls = TLSSettings(
///     caFile: "/etc/ssl/corp-ca.pem",
///     clientCertificate: .file(path: "/etc/syncd/client.pem"),
///     clientKey: .systemdCredential("client.key"))
/// ```
///
/// ## Topics
///
/// - ``init(caFile:caOnly:clientCertificate:clientKey:)``
public struct TLSSettings: Sendable, Hashable {
    /// A PEM file of certificate authorities to trust (`ca_file`), an absolute path. The default is none: the
    /// system's roots only.
    public var caFile: String?
    /// Whether ``caFile`` replaces the system's roots rather than adding to them (`ca_only`). The default is `false`.
    public var caOnly: Bool
    /// The client's certificate, PEM, with any intermediates after it (`client_certificate_file`,
    /// `client_certificate_credential`). The default is none.
    public var clientCertificate: Credential.Secret?
    /// The client certificate's private key, PEM, unencrypted (`client_key_file`, `client_key_credential`).
    public var clientKey: Credential.Secret?

    /// Settings; the defaults trust the system's roots and send no client certificate.
    ///
    /// - Parameters:
    ///   - caFile: A PEM file of certificate authorities to trust.
    ///   - caOnly: Whether `caFile` replaces the system's roots.
    ///   - clientCertificate: The client certificate (PEM), for mutual TLS.
    ///   - clientKey: Its private key (PEM); set with `clientCertificate`.
    public init(
        caFile: String? = nil, caOnly: Bool = false, clientCertificate: Credential.Secret? = nil,
        clientKey: Credential.Secret? = nil
    ) {
        self.caFile = caFile
        self.caOnly = caOnly
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }

    /// Whether these are the defaults: the one HTTP client every request without settings of its own shares.
    package var isDefault: Bool { self == TLSSettings() }

    /// What is wrong with them without reading a file, in syncd.toml's words.
    package var problems: [OptionProblem] {
        var problems: [OptionProblem] = []
        if let caFile, !caFile.hasPrefix("/") {
            problems.append(OptionProblem(key: "ca_file", "ca_file must be an absolute path"))
        }
        if caOnly, caFile == nil {
            problems.append(OptionProblem(key: "ca_only", "ca_only needs ca_file: it would trust no server at all"))
        }
        switch (clientCertificate, clientKey) {
        case (.some, nil):
            problems.append(
                OptionProblem(
                    key: "client_certificate",
                    "client_certificate_file needs client_key_file (or client_key_credential)"))
        case (nil, .some):
            problems.append(
                OptionProblem(
                    key: "client_key",
                    "client_key_file needs client_certificate_file (or client_certificate_credential)"))
        default:
            break
        }
        return problems
    }
}
