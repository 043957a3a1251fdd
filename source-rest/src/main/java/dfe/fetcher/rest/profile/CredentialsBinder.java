package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.auth.AuthMode;
import dfe.fetcher.rest.auth.AuthSettings;
import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds an instance's {@code auth} against its profile's: the mode among those the profile accepts,
 * no key the mode does not take, then the mode's own binder ({@link AuthMode#bind}).
 */
final class CredentialsBinder {

  private final Section connection;
  private final BindContext context;

  CredentialsBinder(Section connection, BindContext context) {
    this.connection = connection;
    this.context = context;
  }

  Credentials bind(Section profileAuth) {
    List<AuthMode> accepts = new ArrayList<>();
    for (YamlNode item : profileAuth.list("accepts").orElse(List.of())) {
      profileAuth
          .text(item, profileAuth.pathOf("accepts"))
          .ifPresent(
              name ->
                  AuthMode.named(name)
                      .ifPresentOrElse(
                          accepts::add,
                          () ->
                              profileAuth.report(
                                  item, profileAuth.pathOf("accepts"), unknownMode(name))));
    }
    Section auth = connection.section("auth", ProfileKeys.AUTH_KEYS);
    AuthMode mode = AuthMode.NONE;
    Optional<String> modeName = auth.string("mode");
    if (connection.node("auth").isPresent() && auth.require("mode") && modeName.isPresent()) {
      Optional<AuthMode> named = AuthMode.named(modeName.get());
      if (named.isEmpty()) {
        auth.report("mode", unknownMode(modeName.get()));
      } else {
        mode = named.get();
      }
    }
    if (!accepts.isEmpty() && !accepts.contains(mode)) {
      auth.report(
          "mode",
          "the profile accepts "
              + String.join(", ", accepts.stream().map(AuthMode::configName).toList())
              + ", not "
              + mode.configName());
    }
    for (String key : ProfileKeys.AUTH_KEYS) {
      if (!key.equals("mode") && !mode.keys().contains(key) && auth.node(key).isPresent()) {
        auth.report(key, "does not apply to auth mode " + mode.configName());
      }
    }
    return mode.bind(new AuthSettings(auth, profileAuth, context));
  }

  private static String unknownMode(String name) {
    return "unknown auth mode '" + name + "'; one of " + String.join(", ", AuthMode.names());
  }
}
