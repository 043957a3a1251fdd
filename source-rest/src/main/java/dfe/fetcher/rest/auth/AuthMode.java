package dfe.fetcher.rest.auth;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** How requests authenticate ({@code auth.mode}). */
public enum AuthMode {
  NONE("none"),
  BEARER("bearer"),
  BASIC("basic"),
  API_KEY("api_key"),
  OAUTH2_CLIENT_CREDENTIALS("oauth2_client_credentials");

  private final String configName;

  AuthMode(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }

  public static Optional<AuthMode> named(String name) {
    return Arrays.stream(values()).filter(m -> m.configName.equals(name)).findFirst();
  }

  public static List<String> names() {
    return Arrays.stream(values()).map(AuthMode::configName).toList();
  }
}
