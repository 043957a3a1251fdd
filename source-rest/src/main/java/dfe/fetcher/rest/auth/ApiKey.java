package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code api_key}: the key in a header ({@code header}, after {@code prefix}, e.g. {@code SSWS })
 * or in a query parameter ({@code query_param}).
 */
record ApiKey(Secret key, Optional<String> header, String prefix, Optional<String> queryParam)
    implements Credentials {

  ApiKey {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(queryParam, "queryParam");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    Optional<String> header = settings.string("header");
    // A key in a query parameter is percent-encoded; one in a header travels as it is.
    Secret key =
        settings.secret(
            "key", header.isPresent() ? Secret.Characters.HTTP_HEADER : Secret.Characters.ANY);
    Optional<String> queryParam = settings.string("query_param");
    String prefix = settings.string("prefix").orElse("");
    if (header.isPresent() == queryParam.isPresent()) {
      auth.report(
          "mode",
          "api_key needs exactly one of header (e.g. X-API-Key) and query_param (e.g. api_key)");
    }
    if (header.isPresent() && !HeaderNames.isToken(header.get())) {
      auth.report("header", "is not a header name");
    }
    if (queryParam.isPresent() && !prefix.isEmpty()) {
      auth.report("prefix", "applies to a header key only");
    }
    return new ApiKey(key, header, prefix, queryParam);
  }

  @Override
  public AuthMode mode() {
    return AuthMode.API_KEY;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation) {
    if (header.isPresent()) {
      request.header(header.get(), prefix + key.reveal());
    }
  }

  @Override
  public URI withCredential(URI uri) {
    if (queryParam.isEmpty()) {
      return uri;
    }
    String param =
        URLEncoder.encode(queryParam.get(), StandardCharsets.UTF_8)
            + "="
            + URLEncoder.encode(key.reveal(), StandardCharsets.UTF_8);
    String query = uri.getRawQuery() == null ? param : uri.getRawQuery() + "&" + param;
    return URI.create(
        uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath() + "?" + query);
  }

  @Override
  public String masked(String rawQuery) {
    if (queryParam.isEmpty()) {
      return rawQuery;
    }
    String name = URLEncoder.encode(queryParam.get(), StandardCharsets.UTF_8) + "=";
    StringBuilder masked = new StringBuilder();
    for (String param : rawQuery.split("&")) {
      masked.append(masked.length() == 0 ? "" : "&");
      masked.append(param.startsWith(name) ? name + "***" : param);
    }
    return masked.toString();
  }
}
