package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.SourceException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Private keys written as PEM: PKCS#8 ({@code BEGIN PRIVATE KEY}), RSA or EC, as {@code openssl
 * pkcs8 -topk8} writes them and as Google's service-account files hold them. Messages name the
 * setting, never a byte of the key.
 */
final class PemKeys {

  private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final String END = "-----END PRIVATE KEY-----";

  private PemKeys() {}

  /**
   * The key in {@code pem}.
   *
   * @param at the config path of the setting it came from
   */
  static PrivateKey privateKey(String pem, String at) throws SourceException {
    if (pem.contains("BEGIN RSA PRIVATE KEY") || pem.contains("BEGIN EC PRIVATE KEY")) {
      throw new SourceException(
          at
              + ": the private key is PKCS#1 or SEC 1; give it as PKCS#8 (BEGIN PRIVATE KEY), e.g."
              + " openssl pkcs8 -topk8 -nocrypt -in key.pem");
    }
    if (pem.contains("BEGIN ENCRYPTED PRIVATE KEY")) {
      throw new SourceException(
          at + ": the private key is encrypted; give it unencrypted (openssl pkcs8 -nocrypt)");
    }
    int begin = pem.indexOf(BEGIN);
    int end = pem.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new SourceException(
          at + ": the private key is not a PEM PKCS#8 key (BEGIN PRIVATE KEY)");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(pem.substring(begin + BEGIN.length(), end));
    } catch (IllegalArgumentException e) {
      throw new SourceException(at + ": the private key's PEM body is not base64");
    }
    for (String type : new String[] {"RSA", "EC"}) {
      try {
        return KeyFactory.getInstance(type).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // Not this type: the next one.
      }
    }
    throw new SourceException(at + ": the private key is neither an RSA nor an EC PKCS#8 key");
  }
}
