package dfe.fetcher.rest;

import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A token endpoint that takes a JWT only when its signature verifies with {@code publicKey}:
 * answers an access token then, 401 otherwise, and keeps every form and verified claims set.
 */
final class JwtTokenEndpoint {

  private final PublicKey publicKey;
  private final String formField;
  private final String token;
  final ConcurrentLinkedQueue<Map<String, String>> forms = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<JWTClaimsSet> claims = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<String> refusals = new ConcurrentLinkedQueue<>();

  /**
   * @param formField where the JWT is: {@code assertion} or {@code client_assertion}
   */
  JwtTokenEndpoint(PublicKey publicKey, String formField, String token) {
    this.publicKey = publicKey;
    this.formField = formField;
    this.token = token;
  }

  ApiServer.Answer answer() {
    return exchange -> {
      Map<String, String> form = form((String) exchange.getAttribute(ApiServer.BODY));
      forms.add(form);
      try {
        SignedJWT jwt = SignedJWT.parse(form.get(formField));
        JWSVerifier verifier =
            publicKey instanceof RSAPublicKey rsa
                ? new RSASSAVerifier(rsa)
                : new ECDSAVerifier((ECPublicKey) publicKey);
        if (!jwt.verify(verifier)) {
          refusals.add("signature");
          ApiServer.json(401, "{\"error\":\"invalid_grant\"}").answer(exchange);
          return;
        }
        claims.add(jwt.getJWTClaimsSet());
        ApiServer.ok("{\"access_token\":\"" + token + "\",\"expires_in\":3600}").answer(exchange);
      } catch (Exception e) {
        refusals.add(String.valueOf(e));
        ApiServer.json(400, "{\"error\":\"invalid_request\"}").answer(exchange);
      }
    };
  }

  static Map<String, String> form(String body) {
    Map<String, String> form = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      form.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return form;
  }

  List<JWTClaimsSet> verified() {
    return List.copyOf(claims);
  }
}
