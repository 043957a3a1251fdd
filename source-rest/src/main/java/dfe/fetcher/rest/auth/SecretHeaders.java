package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code headers}: several credentials on every request, each a header whose value is a secret, as
 * Datadog takes {@code DD-API-KEY} with {@code DD-APPLICATION-KEY}.
 */
record SecretHeaders(Map<String, Secret> headers) implements Credentials {

  SecretHeaders {
    headers = Map.copyOf(headers);
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    Map<String, Secret> headers = new LinkedHashMap<>();
    if (auth.require("headers")) {
      String at = auth.pathOf("headers");
      for (YamlNode.Entry entry : auth.namedEntries("headers").orElse(List.of())) {
        String name = entry.key();
        String path = Section.join(at, name);
        if (!HeaderNames.isToken(name)) {
          auth.report(entry.keyOrigin(), path, "is not a header name");
          continue;
        }
        if (HeaderNames.isSetByClient(name) && !name.equalsIgnoreCase("Authorization")) {
          auth.report(entry.keyOrigin(), path, "is set by the HTTP client and cannot be sent");
          continue;
        }
        auth.text(entry.value(), path)
            .flatMap(
                spec ->
                    settings
                        .context()
                        .secret(spec, entry.value().origin(), path, Secret.Characters.HTTP_HEADER))
            .ifPresent(secret -> headers.put(name, secret));
      }
      if (auth.namedEntries("headers").map(List::isEmpty).orElse(false)) {
        auth.report("headers", "needs at least one header, e.g. {DD-API-KEY: env:DD_API_KEY}");
      }
    }
    return new SecretHeaders(headers);
  }

  @Override
  public AuthMode mode() {
    return AuthMode.HEADERS;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation) {
    // Sorted so that requests are alike whatever order the map keeps.
    new TreeMap<>(headers).forEach((name, secret) -> request.header(name, secret.reveal()));
  }
}
