package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.ConfigWord;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code signature}: every request signed with an HMAC of its canonical form, as the {@code preset}
 * names it. One preset so far, {@code duo} ({@link DuoSignature}): {@code integration_key}, {@code
 * secret_key}, {@code signature_version} 2 (HMAC-SHA1, parameters in the query) or 5 (HMAC-SHA512,
 * the body hashed too, the only one that signs a JSON body).
 */
record SignedRequests(
    Preset preset, String integrationKey, Secret secretKey, int version, String at)
    implements Credentials {

  /** How a request's canonical form and signature are made. */
  enum Preset implements ConfigWord {
    DUO("duo");

    private final String configName;

    Preset(String configName) {
      this.configName = configName;
    }

    @Override
    public String configName() {
      return configName;
    }
  }

  SignedRequests {
    Objects.requireNonNull(preset, "preset");
    Objects.requireNonNull(integrationKey, "integrationKey");
    Objects.requireNonNull(secretKey, "secretKey");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    String name = settings.required("preset", AuthMode.SIGNATURE);
    Preset preset = Preset.DUO;
    if (!name.isEmpty()) {
      Optional<Preset> named = ConfigWord.named(Preset.class, name);
      if (named.isEmpty()) {
        auth.report(
            "preset",
            "unknown signature preset '"
                + name
                + "'; one of "
                + String.join(", ", ConfigWord.names(Preset.class)));
      } else {
        preset = named.get();
      }
    }
    String integrationKey = settings.required("integration_key", AuthMode.SIGNATURE);
    Secret secretKey = settings.secret("secret_key");
    long version = auth.integer("signature_version", 5, 2, 5);
    if (version != 2 && version != 5) {
      auth.report("signature_version", "must be 2 (HMAC-SHA1) or 5 (HMAC-SHA512), was " + version);
    }
    return new SignedRequests(preset, integrationKey, secretKey, (int) version, auth.path());
  }

  @Override
  public AuthMode mode() {
    return AuthMode.SIGNATURE;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException {
    switch (preset) {
      case DUO -> duo(request, context);
    }
  }

  private void duo(OutgoingRequest request, AuthContext context) throws SourceException {
    byte[] body = request.body();
    if (version == 2 && body.length > 0) {
      throw new SourceException(
          "signature_version 2 signs form parameters, not a JSON body; use 5 ("
              + Section.join(at, "signature_version")
              + ")");
    }
    String date = DuoSignature.date(context.clock().instant());
    URI uri = request.uri();
    String canonical =
        DuoSignature.canonical(
            version,
            date,
            request.method(),
            request.host(),
            uri.getRawPath().isEmpty() ? "/" : uri.getRawPath(),
            uri.getRawQuery(),
            body);
    request.header("Date", date);
    request.header(
        "Authorization",
        DuoSignature.authorization(version, integrationKey, secretKey.reveal(), canonical));
  }
}
