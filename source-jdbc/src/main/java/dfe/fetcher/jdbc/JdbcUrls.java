package dfe.fetcher.jdbc;

import java.util.regex.Pattern;

/**
 * JDBC URLs as they may be printed: a URL may carry a password ({@code
 * jdbc:postgresql://u:secret@host/db}, {@code ?password=secret}, {@code ;password=secret}, Oracle's
 * {@code scott/tiger@host}), and no URL reaches a log, an error or a metric with it.
 */
public final class JdbcUrls {

  private static final Pattern USER_INFO = Pattern.compile("(//[^/@?;]*?:)[^/@?;]*@");

  /** Oracle's {@code jdbc:oracle:thin:scott/tiger@host:1521/svc}. */
  private static final Pattern ORACLE_USER_PASSWORD =
      Pattern.compile("(?i)(jdbc:oracle:[a-z0-9]+:[^/@:]+/)[^@]*@");

  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)([?&;](?:password|pwd|passwd|secret|token|sslpassword|sslkey|accesstoken|apikey)\\s*=)[^&;]*");

  private JdbcUrls() {}

  /** {@code url} with every password-like part replaced by {@code ***}. */
  public static String masked(String url) {
    String masked = USER_INFO.matcher(url).replaceAll("$1***@");
    masked = ORACLE_USER_PASSWORD.matcher(masked).replaceAll("$1***@");
    return SECRET_PARAMETER.matcher(masked).replaceAll("$1***");
  }
}
