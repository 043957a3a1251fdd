package dfe.fetcher.rest.auth;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.rest.http.HeaderValues;
import dfe.fetcher.source.config.Section;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code session_login}: a login request ({@code login_method} to {@code login_path} on {@code
 * base_url}'s origin, a JSON {@code login_body} whose {@code {secret: SPEC}} values are secrets)
 * mints a session token, read at the body's {@code token_pointer} or from the response header
 * {@code token_header}, good for {@code ttl_secs} or for the number at {@code expires_in_pointer};
 * it is sent as {@code header} (default {@code Authorization}) after {@code prefix} (default {@code
 * Bearer } for {@code Authorization}, none otherwise), kept in the connection's {@link TokenCache}
 * and minted again shortly before it expires and once after a 401.
 */
record SessionLogin(
    String method,
    String path,
    LoginBody body,
    Optional<JsonPointer> tokenPointer,
    Optional<String> tokenHeader,
    OptionalLong ttlSecs,
    Optional<JsonPointer> expiresInPointer,
    String header,
    String prefix,
    String at)
    implements Credentials, TokenSource<String> {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WHAT = "the login endpoint";

  SessionLogin {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(tokenPointer, "tokenPointer");
    Objects.requireNonNull(tokenHeader, "tokenHeader");
    Objects.requireNonNull(ttlSecs, "ttlSecs");
    Objects.requireNonNull(expiresInPointer, "expiresInPointer");
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(prefix, "prefix");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    String method = auth.string("login_method").orElse("POST");
    if (!method.equals("POST") && !method.equals("PUT")) {
      auth.report("login_method", "must be POST or PUT, not " + method);
    }
    String path = settings.required("login_path", AuthMode.SESSION_LOGIN);
    if (!path.isEmpty() && (!path.startsWith("/") || !isUriPath(path))) {
      auth.report("login_path", "must be a URI path starting with '/', e.g. /api/login");
    }
    LoginBody body = LoginBody.bind(auth, "login_body", settings.context());
    Optional<JsonPointer> tokenPointer = pointer(auth, "token_pointer");
    Optional<String> tokenHeader = auth.string("token_header");
    if (tokenPointer.isPresent() == tokenHeader.isPresent()) {
      auth.report(
          "mode",
          "session_login needs exactly one of token_pointer (e.g. /data/token) and token_header"
              + " (e.g. X-Session-Token)");
    }
    if (tokenHeader.isPresent() && !HeaderNames.isToken(tokenHeader.get())) {
      auth.report("token_header", "is not a header name");
    }
    OptionalLong ttlSecs = auth.integer("ttl_secs", 1, 366L * 24 * 3600);
    Optional<JsonPointer> expiresInPointer = pointer(auth, "expires_in_pointer");
    if (auth.node("ttl_secs").isPresent() == expiresInPointer.isPresent()) {
      auth.report(
          "mode",
          "session_login needs exactly one of ttl_secs and expires_in_pointer (how long a session"
              + " is good for)");
    }
    String header = settings.string("header").orElse("Authorization");
    if (!HeaderNames.isToken(header)
        || (HeaderNames.isSetByClient(header) && !header.equalsIgnoreCase("Authorization"))) {
      auth.report("header", "is not a header a session token can be sent in");
    }
    String prefix =
        settings.string("prefix").orElse(header.equalsIgnoreCase("Authorization") ? "Bearer " : "");
    return new SessionLogin(
        method,
        path,
        body,
        tokenPointer,
        tokenHeader,
        ttlSecs,
        expiresInPointer,
        header,
        prefix,
        auth.path());
  }

  private static boolean isUriPath(String path) {
    try {
      URI uri = new URI(path);
      return uri.getRawPath() != null
          && uri.getRawPath().equals(path)
          && uri.getScheme() == null
          && uri.getRawAuthority() == null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static Optional<JsonPointer> pointer(Section auth, String key) {
    Optional<String> text = auth.string(key);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      if (!text.get().startsWith("/")) {
        throw new IllegalArgumentException("no leading '/'");
      }
      return Optional.of(JsonPointer.compile(text.get()));
    } catch (IllegalArgumentException e) {
      auth.report(key, "must be a JSON pointer (RFC 6901), e.g. /data/token");
      return Optional.of(JsonPointer.empty());
    }
  }

  @Override
  public AuthMode mode() {
    return AuthMode.SESSION_LOGIN;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    request.header(header, prefix + context.token(this, cancellation));
  }

  @Override
  public Issued<String> issue(AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    URI uri = URI.create(context.origin() + path);
    String where = TokenEndpoint.describe(WHAT, uri);
    HttpRequest request =
        TokenEndpoint.build(
            context
                .endpoint()
                .request(uri)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body.render())),
            WHAT);
    TokenEndpoint.Answer answer =
        context
            .endpoint()
            .exchange(
                request,
                WHAT,
                "check the credentials in login_body (" + Section.join(at, "login_body") + ")",
                cancellation);
    JsonNode json = null;
    if (tokenPointer.isPresent() || expiresInPointer.isPresent()) {
      try {
        json = JSON.readTree(answer.body());
      } catch (IOException e) {
        throw new SourceException(where + " answered with a body that is not JSON (" + at + ")");
      }
      if (json == null) {
        throw new SourceException(where + " answered with an empty body (" + at + ")");
      }
    }
    String token;
    if (tokenPointer.isPresent()) {
      JsonNode found = json.at(tokenPointer.get());
      if (!found.isTextual() || found.asText().isEmpty()) {
        throw new SourceException(
            where
                + " answered without a token at "
                + tokenPointer.get()
                + " ("
                + at
                + ".token_pointer)");
      }
      token = found.asText();
    } else {
      token =
          answer
              .headers()
              .firstValue(tokenHeader.orElseThrow())
              .filter(value -> !value.isEmpty())
              .orElseThrow(
                  () ->
                      new SourceException(
                          where
                              + " answered without a "
                              + tokenHeader.get()
                              + " header ("
                              + at
                              + ".token_header)"));
    }
    if (!HeaderValues.canCarry(prefix + token)) {
      throw new SourceException(
          where + " answered a token an HTTP header cannot carry (" + at + ")");
    }
    long expiresIn;
    if (ttlSecs.isPresent()) {
      expiresIn = ttlSecs.getAsLong();
    } else {
      JsonNode found = json.at(expiresInPointer.orElseThrow());
      if (!found.canConvertToLong()) {
        throw new SourceException(
            where
                + " answered without a number of seconds at "
                + expiresInPointer.get()
                + " ("
                + at
                + ".expires_in_pointer)");
      }
      expiresIn = found.asLong();
    }
    return new Issued<>(token, expiresIn);
  }

  @Override
  public boolean refreshes() {
    return true;
  }
}
