package dfe.fetcher.snapshots.apply;

import java.sql.SQLException;

/**
 * Tells a database error the rows caused (their snapshot is refused, the run goes on) from one of
 * the database itself (the run fails), for staging and the swap alike.
 */
final class RowsFault {

  private RowsFault() {}

  /**
   * Whether {@code e} (or a batch's next exception) is the rows' fault rather than the database's:
   * class 22, a data exception (a value that does not cast, a record jsonb cannot hold, such as one
   * with a \\u0000), or 23, an integrity violation (a key missing or repeated).
   */
  static boolean isRowsFault(SQLException e) {
    for (SQLException cause = e; cause != null; cause = cause.getNextException()) {
      String state = cause.getSQLState() == null ? "" : cause.getSQLState();
      if (state.startsWith("22") || state.startsWith("23")) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code e} (or a batch's next exception) says a table does not exist (42P01). */
  static boolean isUndefinedTable(SQLException e) {
    for (SQLException cause = e; cause != null; cause = cause.getNextException()) {
      if ("42P01".equals(cause.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /** The first line of the server's message, and its detail line when it has one. */
  static String reasonOf(String message) {
    if (message == null) {
      return "";
    }
    String[] lines = message.split("\n");
    String described = lines[0].trim();
    for (String line : lines) {
      if (line.trim().startsWith("Detail:")) {
        described += " (" + line.trim() + ")";
      }
    }
    return described.replace("\"", "'");
  }
}
