package dfe.fetcher.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JDBC URLs as they may be printed: a URL may carry a password ({@code
 * jdbc:postgresql://u:secret@host/db}, {@code ?password=secret}, {@code ;password=secret}, Oracle's
 * {@code scott/tiger@host}), and no URL reaches a log, an error or a metric with it.
 */
public final class JdbcUrls {

  /** Oracle's {@code jdbc:oracle:thin:scott/tiger@host:1521/svc}. */
  private static final Pattern ORACLE_USER_PASSWORD =
      Pattern.compile("(?i)(jdbc:oracle:[a-z0-9]+:[^/@:]+/)([^@]*)@");

  /** A parameter whose name says password, secret, key or token, in any driver's spelling. */
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)([?&;]\\s*[a-z0-9_.\\-]*(?:password|passwd|pwd|secret|key|token)[a-z0-9_.\\-]*\\s*=)([^&;]*)");

  private JdbcUrls() {}

  /** {@code url} with every password-like part replaced by {@code ***}. */
  public static String masked(String url) {
    String masked = url;
    int[] password = userInfoPassword(url);
    if (password != null) {
      masked = url.substring(0, password[0]) + "***" + url.substring(password[1]);
    }
    masked = ORACLE_USER_PASSWORD.matcher(masked).replaceAll("$1***@");
    return SECRET_PARAMETER.matcher(masked).replaceAll("$1***");
  }

  /**
   * The password-like values {@code url} holds (the parts {@link #masked} hides), each as written
   * and, when it differs, URL-decoded. A driver that cannot parse a URL quotes a piece of it
   * (MariaDB Connector/J: {@code Incorrect port value : s3cret@127.0.0.1}), which masking the whole
   * URL in a message does not catch: these values are taken out of messages one by one.
   */
  static List<String> secrets(String url) {
    Set<String> values = new LinkedHashSet<>();
    int[] password = userInfoPassword(url);
    if (password != null) {
      values.add(url.substring(password[0], password[1]));
    }
    for (Pattern pattern : List.of(ORACLE_USER_PASSWORD, SECRET_PARAMETER)) {
      Matcher found = pattern.matcher(url);
      while (found.find()) {
        values.add(found.group(2));
      }
    }
    List<String> secrets = new ArrayList<>();
    for (String value : values) {
      if (value.isEmpty()) {
        continue;
      }
      secrets.add(value);
      try {
        String decoded = URLDecoder.decode(value, StandardCharsets.UTF_8);
        if (!decoded.equals(value)) {
          secrets.add(decoded);
        }
      } catch (IllegalArgumentException notEncoded) {
        // A stray % that starts no escape: the value as written is the one a driver quotes.
      }
    }
    return secrets;
  }

  /**
   * Where the password of {@code //user:password@host} lies in {@code url}, {@code [from, to)}, or
   * null; it may hold anything ({@code /} included): the user info is what precedes the last
   * {@code @} before the query ({@code ?} or {@code ;}), so an {@code @} inside a parameter value
   * is not mistaken for it.
   */
  private static int[] userInfoPassword(String url) {
    int authority = url.indexOf("//");
    if (authority < 0) {
      return null;
    }
    int start = authority + 2;
    int query = url.length();
    for (char end : new char[] {'?', ';'}) {
      int at = url.indexOf(end, start);
      if (at >= 0) {
        query = Math.min(query, at);
      }
    }
    int userInfoEnd = url.lastIndexOf('@', query - 1);
    if (userInfoEnd < start) {
      return null;
    }
    int colon = url.indexOf(':', start);
    if (colon < 0 || colon > userInfoEnd) {
      return null;
    }
    return new int[] {colon + 1, userInfoEnd};
  }
}
