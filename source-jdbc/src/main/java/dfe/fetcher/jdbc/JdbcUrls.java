package dfe.fetcher.jdbc;

import java.util.regex.Pattern;

/**
 * JDBC URLs as they may be printed: a URL may carry a password ({@code
 * jdbc:postgresql://u:secret@host/db}, {@code ?password=secret}, {@code ;password=secret}, Oracle's
 * {@code scott/tiger@host}), and no URL reaches a log, an error or a metric with it.
 */
public final class JdbcUrls {

  /** Oracle's {@code jdbc:oracle:thin:scott/tiger@host:1521/svc}. */
  private static final Pattern ORACLE_USER_PASSWORD =
      Pattern.compile("(?i)(jdbc:oracle:[a-z0-9]+:[^/@:]+/)[^@]*@");

  /** A parameter whose name says password, secret, key or token, in any driver's spelling. */
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)([?&;]\\s*[a-z0-9_.\\-]*(?:password|passwd|pwd|secret|key|token)[a-z0-9_.\\-]*\\s*=)[^&;]*");

  private JdbcUrls() {}

  /** {@code url} with every password-like part replaced by {@code ***}. */
  public static String masked(String url) {
    String masked = withoutUserInfoPassword(url);
    masked = ORACLE_USER_PASSWORD.matcher(masked).replaceAll("$1***@");
    return SECRET_PARAMETER.matcher(masked).replaceAll("$1***");
  }

  /**
   * {@code //user:password@host} with the password masked, whatever it holds ({@code /} included):
   * the user info is what precedes the last {@code @} before the query ({@code ?} or {@code ;}), so
   * an {@code @} inside a parameter value is not mistaken for it.
   */
  private static String withoutUserInfoPassword(String url) {
    int authority = url.indexOf("//");
    if (authority < 0) {
      return url;
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
      return url;
    }
    int colon = url.indexOf(':', start);
    if (colon < 0 || colon > userInfoEnd) {
      return url;
    }
    return url.substring(0, colon + 1) + "***" + url.substring(userInfoEnd);
  }
}
