package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One tick's read of a store: a connection borrowed from the pool, one read-only transaction that
 * ends with a rollback whatever happens, statements cancelled when the tick is, and a failure
 * reported with the store's name and the driver's message redacted. A dump and a tail read the same
 * way; only what they run inside differs.
 */
final class StoreTransaction {

  /** What runs inside the transaction. */
  @FunctionalInterface
  interface Body {
    void readIn(Connection connection) throws SQLException, SourceException, InterruptedException;
  }

  private StoreTransaction() {}

  /**
   * Runs {@code body} in a read-only transaction on a connection of {@code database}.
   *
   * @param store the unit's name, {@code CONNECTION.UNIT}, for the pool and for errors
   * @param failed what failed, for the message: {@code the dump query failed}
   * @throws SourceException when the database refuses (the driver's message redacted), or when
   *     {@code body} throws one
   * @throws InterruptedException when the tick is cancelled, also when a cancelled statement ended
   *     in an error
   */
  static void run(
      OpenDatabase database, String store, String failed, Cancellation cancellation, Body body)
      throws SourceException, InterruptedException {
    cancellation.throwIfCancelled();
    try (Connection connection = database.borrow(store)) {
      try {
        connection.setAutoCommit(false);
        readOnly(connection);
        body.readIn(connection);
      } finally {
        endTransaction(connection);
      }
    } catch (SQLException e) {
      cancellation.throwIfCancelled();
      throw database.redaction().failure(store, failed, e);
    }
  }

  /** What reads a query's rows. */
  @FunctionalInterface
  interface RowsReader<T> {
    T read(ResultSet rows) throws SQLException, SourceException, InterruptedException;
  }

  /**
   * Runs {@code statement}'s query and hands its rows to {@code reader}, with the tick's
   * cancellation registered on the statement. Cancellation is checked once registered (a cancel
   * that came before reaches no running statement) and again once the query answered (a killed
   * query may answer as if it had finished). When reading fails, whatever the cause (the sink
   * refused a row, a value could not be mapped), the statement is cancelled before it is closed:
   * closing a result set half read makes some drivers (MariaDB's) read the rest of it first.
   */
  static <T> T query(PreparedStatement statement, Cancellation cancellation, RowsReader<T> reader)
      throws SQLException, SourceException, InterruptedException {
    try (Cancellation.Registration registered = cancellation.onCancel(() -> cancel(statement))) {
      cancellation.throwIfCancelled();
      try (ResultSet rows = statement.executeQuery()) {
        cancellation.throwIfCancelled();
        try {
          return reader.read(rows);
        } catch (SQLException
            | SourceException
            | InterruptedException
            | RuntimeException
            | Error failure) {
          cancel(statement);
          throw failure;
        }
      }
    }
  }

  /**
   * Asks for a read-only transaction. A hint (JDBC lets a driver ignore it), and one SQLite refuses
   * on an open connection: its refusal leaves a plain transaction, which reads the same.
   */
  private static void readOnly(Connection connection) {
    try {
      connection.setReadOnly(true);
    } catch (SQLException refused) {
      // the rows read the same without the hint
    }
  }

  private static void cancel(Statement statement) {
    try {
      statement.cancel();
    } catch (SQLException ignored) {
      // The statement ended or the connection is gone: either way it no longer runs.
    }
  }

  /**
   * A read-only transaction ends with a rollback: nothing to keep, and the snapshot is released.
   */
  private static void endTransaction(Connection connection) {
    try {
      if (!connection.getAutoCommit()) {
        connection.rollback();
      }
    } catch (SQLException ignored) {
      // The pool validates the connection before lending it again.
    }
  }
}
