package dfe.fetcher.rest.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Date;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A JWT signed with a private key (RFC 7523), as an authorization grant ({@code jwt_bearer}) or as
 * a client's authentication ({@code private_key_jwt}): {@code iss}, {@code sub}, {@code aud},
 * {@code iat}, {@code exp} ({@code iat} plus {@code lifetimeSecs}), a fresh {@code jti}, and {@code
 * scope} when given. The key is a PKCS#8 PEM ({@code BEGIN PRIVATE KEY}), RSA (signed RS256) or EC
 * P-256 (ES256), read from its secret each time an assertion is made.
 *
 * @param at the config path of the key's setting, for messages
 */
record JwtAssertion(
    String issuer,
    String subject,
    String audience,
    Optional<String> scope,
    long lifetimeSecs,
    Optional<String> keyId,
    Secret privateKey,
    String at) {

  JwtAssertion {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(privateKey, "privateKey");
  }

  /** The assertion, signed, for {@code now}. */
  String sign(Instant now) throws SourceException {
    PrivateKey key = PemKeys.privateKey(privateKey.reveal(), at);
    JWSAlgorithm algorithm;
    JWSSigner signer;
    try {
      if (key instanceof RSAPrivateKey rsa) {
        algorithm = JWSAlgorithm.RS256;
        signer = new RSASSASigner(rsa);
      } else if (key instanceof ECPrivateKey ec) {
        algorithm = JWSAlgorithm.ES256;
        signer = new ECDSASigner(ec);
      } else {
        throw new SourceException(at + ": the private key is neither RSA nor EC");
      }
      JWTClaimsSet.Builder claims =
          new JWTClaimsSet.Builder()
              .issuer(issuer)
              .subject(subject)
              .audience(audience)
              .issueTime(Date.from(now))
              .expirationTime(Date.from(now.plusSeconds(lifetimeSecs)))
              .jwtID(UUID.randomUUID().toString());
      scope.ifPresent(s -> claims.claim("scope", s));
      JWSHeader.Builder header = new JWSHeader.Builder(algorithm).type(JOSEObjectType.JWT);
      keyId.ifPresent(header::keyID);
      SignedJWT jwt = new SignedJWT(header.build(), claims.build());
      jwt.sign(signer);
      return jwt.serialize();
    } catch (JOSEException e) {
      // The library's message names the algorithm or the key size, never the key.
      throw new SourceException(at + ": the assertion cannot be signed: " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "JwtAssertion[iss=" + issuer + ", aud=" + audience + ", key=***]";
  }
}
