package import NIOSSL
import SyncSupport

/// Reading ``TLSSettings``' files into NIOSSL's client configuration: one implementation for the transport, which
/// builds its clients with it, and for the configuration's reader and `check-config`, which check the files with it.
extension TLSSettings {
    /// The largest PEM file read: a CA bundle is a few hundred KiB at most.
    static let maximumPEMSize = 4 << 20

    /// The client configuration these settings make: verified certificates and host names, the CA file's roots
    /// added to (or, with ``caOnly``, instead of) the system's, and the client certificate.
    ///
    /// - Parameter environment: Where `$CREDENTIALS_DIRECTORY` (and a Swift caller's environment secrets) are read.
    /// - Throws: ``OptionProblem`` keyed by the TOML key, one sentence naming the file (never its contents): not
    ///   readable, not PEM, or a key that does not match the certificate.
    package func makeClientConfiguration(environment: [String: String]) throws(OptionProblem) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            let name = "ca_file \(caFile)"
            let roots = try Self.certificates(
                Self.read(.file(caFile), name: name, key: "ca_file"), name: name, key: "ca_file")
            if caOnly {
                configuration.trustRoots = .certificates(roots)
            } else {
                configuration.additionalTrustRoots = [.certificates(roots)]
            }
        }
        guard let clientCertificate, let clientKey else { return configuration }
        let certificateName = Self.name(of: clientCertificate.source, key: "client_certificate")
        let certificateKey = Self.key(of: clientCertificate.source, key: "client_certificate")
        let chain = try Self.certificates(
            Self.read(clientCertificate.source, name: certificateName, key: certificateKey, environment: environment),
            name: certificateName, key: certificateKey)
        let keyName = Self.name(of: clientKey.source, key: "client_key")
        let keyKey = Self.key(of: clientKey.source, key: "client_key")
        let bytes = try Self.read(clientKey.source, name: keyName, key: keyKey, environment: environment)
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(bytes: bytes, format: .pem)
        } catch {
            throw OptionProblem(
                key: keyKey, "\(keyName) is not a PEM private key (an encrypted key cannot be read; decrypt it first)")
        }
        configuration.certificateChain = chain.map { .certificate($0) }
        configuration.privateKey = .privateKey(privateKey)
        do {
            // BoringSSL checks here that the key is the certificate's.
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw OptionProblem(key: keyKey, "\(keyName) is not the private key of \(certificateName)")
        }
        return configuration
    }

    /// How a message names a source of `key`: `client_key_file /etc/syncd/key.pem`,
    /// `client_key_credential "client.key"`, the literal value given in Swift never.
    private static func name(of source: SecretSource, key: String) -> String {
        switch source {
        case .file(let path): "\(key)_file \(path)"
        case .credential(let name): "\(key)_credential \"\(name)\""
        case .environment(let variable): "\(key) (environment variable \(variable))"
        case .literal: "the \(key.replacing("_", with: " ")) given in code"
        }
    }

    /// The TOML key a source is read from, for the line of a problem.
    private static func key(of source: SecretSource, key: String) -> String {
        switch source {
        case .credential: key + "_credential"
        default: key + "_file"
        }
    }

    private static func read(
        _ source: SecretSource, name: String, key: String, environment: [String: String] = [:]
    ) throws(OptionProblem) -> [UInt8] {
        let path: String
        switch source {
        case .literal(let text):
            return Array(text.utf8)
        case .environment(let variable):
            guard let value = environment[variable] else { throw OptionProblem(key: key, "\(name) is not set") }
            return Array(value.utf8)
        case .file(let file):
            path = file
        case .credential(let credential):
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                throw OptionProblem(
                    key: key, "\(name): $CREDENTIALS_DIRECTORY is not set (LoadCredential= in the unit provides it)")
            }
            path = directory + "/" + credential
        }
        do {
            return try ConfigurationFile.readBytes(atPath: path, limit: maximumPEMSize)
        } catch {
            throw OptionProblem(key: key, "\(name): \(error.reason)")
        }
    }

    private static func certificates(_ bytes: [UInt8], name: String, key: String) throws(OptionProblem)
        -> [NIOSSLCertificate]
    {
        let noCertificate = OptionProblem(key: key, "\(name) holds no PEM certificate")
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw noCertificate
        }
        guard !certificates.isEmpty else { throw noCertificate }
        return certificates
    }
}

extension TLSSettings {
    /// Why the files and credentials cannot be used now, in one sentence naming the key (never a key's contents);
    /// nil when they can: `check-config`'s note for the systemd credentials that syncd.toml's reader leaves to the
    /// first request.
    ///
    /// - Parameter environment: Where `$CREDENTIALS_DIRECTORY` is read.
    package func unusableReason(environment: [String: String]) -> String? {
        guard !isDefault else { return nil }
        do {
            _ = try makeClientConfiguration(environment: environment)
            return nil
        } catch {
            return error.sentence
        }
    }
}
