package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a connection's secrets out of what it reports: a driver's message may quote the URL, and
 * the URL may carry a password. Every failure a store reports passes through here.
 */
final class Redaction {

  private final String url;
  private final List<String> urlSecrets;
  private final List<Secret> secrets;

  private Redaction(String url, List<Secret> secrets) {
    this.url = url;
    this.urlSecrets = JdbcUrls.secrets(url);
    this.secrets = secrets;
  }

  static Redaction of(DbConnection connection) {
    List<Secret> secrets = new ArrayList<>();
    connection.password().ifPresent(secrets::add);
    secrets.addAll(connection.properties().values());
    return new Redaction(connection.url(), secrets);
  }

  /**
   * {@code text} with the URL masked, and every password the URL holds and every secret's current
   * value replaced by {@code ***} wherever they occur (a driver may quote a piece of the URL).
   */
  String clean(String text) {
    if (text == null) {
      return "";
    }
    // One event, one log line: drivers put the statement on a line of its own.
    String cleaned = text.replace(url, JdbcUrls.masked(url)).replaceAll("\\s*\\R\\s*", " ");
    for (String value : urlSecrets) {
      cleaned = withoutValue(cleaned, value);
    }
    for (Secret secret : secrets) {
      try {
        cleaned = withoutValue(cleaned, secret.reveal());
      } catch (RuntimeException e) {
        // A secret that cannot be read now was not used for this connection either.
      }
    }
    return cleaned;
  }

  /** A value of one or two characters would mask text that is no secret: it is left. */
  private static String withoutValue(String text, String value) {
    return value.length() >= 3 ? text.replace(value, "***") : text;
  }

  /** The failure of {@code store} ({@code connection.unit}) doing {@code what}. */
  SourceException failure(String store, String what, SQLException e) {
    SQLException cause = databasesOwnWords(e);
    String state = cause.getSQLState() == null ? "" : " (SQL state " + cause.getSQLState() + ")";
    return new SourceException(
        store + ": " + what + state + ": " + clean(cause.getMessage()), null);
  }

  /**
   * The failure in the database's own words: a pool that could not lend a connection in time says
   * only that ("Connection is not available, request timed out"), and keeps the reason the last
   * attempt failed ("database \"crm\" does not exist", a refused password) as its cause.
   */
  private static SQLException databasesOwnWords(SQLException e) {
    if (e instanceof SQLTransientConnectionException && e.getCause() instanceof SQLException why) {
      return why;
    }
    return e;
  }
}
