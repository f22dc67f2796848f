import Crypto
import Foundation
import _CryptoExtras

/// The RSA key pair the emulator signs sign-in tokens with (RS256), and its public half as a JWKS.
///
/// It lives in memory only, one per process: a restarted emulator has a new key, so sign-in tokens
/// minted before the restart no longer verify (they live minutes anyway; access and refresh tokens
/// are stored and survive). It is made on first use rather than at start, and shared by the
/// emulators of one process, because RSA key generation costs tens of milliseconds of CPU and the
/// test suite opens many in-process emulators.
final class SigningKey: Sendable {
    static let process = SigningKey()

    private struct Material: Sendable {
        var privateKey: _RSA.Signing.PrivateKey
        var keyId: String
    }

    private let material = Locked<Material?>(nil)

    private func current() throws -> Material {
        try material.withLock { material in
            if let material { return material }
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            // A stable name for the key (RFC 7638 style, shortened): the SHA-256 of its public DER.
            let digest = SHA256.hash(data: key.publicKey.derRepresentation)
            let made = Material(privateKey: key, keyId: Base64URL.encode(Data(digest).prefix(12)))
            material = made
            return made
        }
    }

    var keyId: String {
        get throws { try current().keyId }
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 over the JWS signing input.
    func sign(_ input: String) throws -> Data {
        try current().privateKey.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation
    }

    func isValidSignature(_ signature: Data, for input: String) throws -> Bool {
        let publicKey = try current().privateKey.publicKey
        return publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data(input.utf8), padding: .insecurePKCS1v1_5)
    }

    /// `GET /v1/jwks`: the public key as a JSON Web Key Set (RFC 7517).
    func jwks() throws -> JSONValue {
        let material = try current()
        let primitives = try material.privateKey.publicKey.getKeyPrimitives()
        let key: JSONValue = [
            "kty": "RSA", "use": "sig", "alg": "RS256", "kid": .string(material.keyId),
            "n": .string(Base64URL.encode(primitives.modulus)), "e": .string(Base64URL.encode(primitives.publicExponent)),
        ]
        return ["keys": [key]]
    }
}
