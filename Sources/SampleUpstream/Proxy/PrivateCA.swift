import FoundationEssentials
package import NIOSSL

/// A private certificate authority and the certificates the TLS tests need, made with `openssl` in a folder: a
/// server certificate for 127.0.0.1 and a client certificate signed by the CA, a server certificate signed by
/// another CA nobody trusts, and a key that matches no certificate. EC P-256 keys, valid for two days.
package struct PrivateCA: Sendable {
    /// The folder the files are in.
    package let directory: String

    package var caFile: String { directory + "/ca.pem" }
    package var serverCertificate: String { directory + "/server.pem" }
    package var serverKey: String { directory + "/server.key" }
    package var clientCertificate: String { directory + "/client.pem" }
    package var clientKey: String { directory + "/client.key" }
    /// The CA that signed ``strangerCertificate``, which no one is told to trust.
    package var otherCAFile: String { directory + "/other-ca.pem" }
    package var strangerCertificate: String { directory + "/stranger.pem" }
    package var strangerKey: String { directory + "/stranger.key" }
    /// A key that is no certificate's.
    package var unrelatedKey: String { directory + "/unrelated.key" }

    private static let script = """
        set -e
        key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
        ca() { key "$1.key"; openssl req -x509 -new -key "$1.key" -subj "/CN=$2" -days 2 -out "$1.pem"; }
        # leaf NAME CA EXTENSIONS
        leaf() {
            key "$1.key"
            openssl req -new -key "$1.key" -subj "/CN=$1" -out "$1.csr"
            printf '%s\\n' "$3" > "$1.ext"
            openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -set_serial "0x$(openssl rand -hex 8)" \\
                -days 2 -out "$1.pem" -extfile "$1.ext" 2>/dev/null
        }
        ca ca syncd-test-ca
        ca other-ca syncd-test-other-ca
        leaf server ca 'subjectAltName=IP:127.0.0.1,DNS:localhost
        extendedKeyUsage=serverAuth'
        leaf client ca 'extendedKeyUsage=clientAuth'
        leaf stranger other-ca 'subjectAltName=IP:127.0.0.1,DNS:localhost
        extendedKeyUsage=serverAuth'
        key unrelated.key
        """

    /// Makes the files in `directory`, which must exist.
    ///
    /// - Throws: ``SpawnError`` when `openssl` cannot be started or fails.
    package static func make(in directory: String) async throws -> PrivateCA {
        let process = try ChildProcess.spawn(
            "/bin/sh", ["-c", script], directory: directory, standardOutput: .null, standardError: .null)
        let status = await process.wait()
        guard status == 0 else {
            throw ChildProcess.SpawnError(
                description: "openssl could not make the test certificates (status \(status))")
        }
        return PrivateCA(directory: directory)
    }

    /// A server context for 127.0.0.1 with the CA's server certificate (or the stranger's, signed by the other CA),
    /// requiring a client certificate signed by the CA when `requiringClientCertificate`.
    package func serverContext(stranger: Bool = false, requiringClientCertificate: Bool = false) throws -> NIOSSLContext
    {
        let chain = try NIOSSLCertificate.fromPEMFile(stranger ? strangerCertificate : serverCertificate)
        let key = try NIOSSLPrivateKey(file: stranger ? strangerKey : serverKey, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        if requiringClientCertificate {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
        }
        return try NIOSSLContext(configuration: configuration)
    }
}
