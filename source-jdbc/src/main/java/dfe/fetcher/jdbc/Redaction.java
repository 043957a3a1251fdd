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
  private final List<Secret> secrets;

  private Redaction(String url, List<Secret> secrets) {
    this.url = url;
    this.secrets = secrets;
  }

  static Redaction of(DbConnection connection) {
    List<Secret> secrets = new ArrayList<>();
    connection.password().ifPresent(secrets::add);
    secrets.addAll(connection.properties().values());
    return new Redaction(connection.url(), secrets);
  }

  /** {@code text} with the URL masked and every secret's current value replaced by {@code ***}. */
  String clean(String text) {
    if (text == null) {
      return "";
    }
    // One event, one log line: drivers put the statement on a line of its own.
    String cleaned = text.replace(url, JdbcUrls.masked(url)).replaceAll("\\s*\\R\\s*", " ");
    for (Secret secret : secrets) {
      String value;
      try {
        value = secret.reveal();
      } catch (RuntimeException e) {
        continue;
      }
      if (value.length() >= 3) {
        cleaned = cleaned.replace(value, "***");
      }
    }
    return cleaned;
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
