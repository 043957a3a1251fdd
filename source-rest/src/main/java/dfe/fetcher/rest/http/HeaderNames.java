package dfe.fetcher.rest.http;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** What a profile may name as a header: an RFC 9110 token, and not one the client sets itself. */
public final class HeaderNames {

  /** Headers the HTTP client sets itself and refuses to be given. */
  private static final Set<String> SET_BY_CLIENT =
      Set.of("connection", "content-length", "expect", "host", "upgrade", "authorization");

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private HeaderNames() {}

  /** Whether {@code name} can be a header's name at all. */
  public static boolean isToken(String name) {
    return TOKEN.matcher(name).matches();
  }

  /** Whether the client sets {@code name} itself (any case), so a profile must leave it out. */
  public static boolean isSetByClient(String name) {
    return SET_BY_CLIENT.contains(name.toLowerCase(Locale.ROOT));
  }
}
