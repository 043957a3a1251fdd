package dfe.fetcher.rest.http;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a profile may name as a header: an RFC 9110 token, and not one the client sets itself; and
 * which names carry credentials, so that they go only where credentials go.
 */
public final class HeaderNames {

  /** Headers the HTTP client sets itself and refuses to be given. */
  private static final Set<String> SET_BY_CLIENT =
      Set.of("connection", "content-length", "expect", "host", "upgrade", "authorization");

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** Words of a header's name ({@code X-Api-Key}: x, api, key) that say it holds a credential. */
  private static final Set<String> CREDENTIAL_WORDS =
      Set.of(
          "auth",
          "authorization",
          "apikey",
          "key",
          "token",
          "secret",
          "password",
          "passwd",
          "session",
          "cookie",
          "credential",
          "credentials",
          "signature");

  private HeaderNames() {}

  /** Whether {@code name} can be a header's name at all. */
  public static boolean isToken(String name) {
    return TOKEN.matcher(name).matches();
  }

  /**
   * Whether {@code name} (any case) reads as a header that carries a credential: {@code Cookie},
   * {@code Proxy-Authorization}, {@code X-Api-Key}, {@code Private-Token}, {@code
   * X-Amz-Security-Token}, any name with a word such as key, token, secret, session or auth.
   */
  public static boolean carriesCredentials(String name) {
    for (String word : name.toLowerCase(Locale.ROOT).split("[-_.]")) {
      if (CREDENTIAL_WORDS.contains(word)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the client sets {@code name} itself (any case), so a profile must leave it out. */
  public static boolean isSetByClient(String name) {
    return SET_BY_CLIENT.contains(name.toLowerCase(Locale.ROOT));
  }
}
