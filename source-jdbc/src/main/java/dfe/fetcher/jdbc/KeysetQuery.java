package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.SourceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a tail and a resumable dump share to read a store in key order: the key columns as the
 * query's result labels them, the check that no key is NULL, the key's place in each row, and the
 * last key bound into the next page ({@code k > ?}) with its own types.
 */
final class KeysetQuery {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.db");

  /** The key columns as the result labels them, and the kind of the first (the settle column). */
  record KeyColumns(List<String> labels, Columns.Kind firstKind, boolean mayBeNull) {}

  private final OpenDatabase database;
  private final DbStore store;
  private final String name;

  /** Whether the warning that the key's uniqueness cannot be checked was logged. */
  private volatile boolean warnedKeyUnknown;

  KeysetQuery(OpenDatabase database, DbStore store, String name) {
    this.database = database;
    this.store = store;
    this.name = name;
  }

  /**
   * Refuses a checkpoint whose key has another number of values than the key has columns: the key
   * changed since it was written, and its values cannot be bound.
   *
   * @param remedy what the operator does about it, the end of the message
   */
  void checkKeyWidth(Optional<KeysetMark> after, String remedy) throws SourceException {
    if (after.isPresent() && after.get().values().size() != store.key().size()) {
      throw new SourceException(
          name
              + ": the checkpoint has "
              + after.get().values().size()
              + " key values but the key has "
              + store.key().size()
              + " columns; "
              + remedy);
    }
  }

  /**
   * The key columns as the query's result labels them: a database that folds unquoted names (H2 and
   * Oracle to upper case, PostgreSQL to lower) reports {@code ID} for a key written {@code id}. An
   * exact match wins, then one that differs only in case; the result is what gets quoted.
   *
   * <p>Also asks the database whether the key is unique ({@link KeyUniqueness}): a key it says is
   * not fails the tick; one it cannot tell about is warned about once. A key's NULL-ness is taken
   * from the metadata only where the key is known unique in the one table the query reads: through
   * an outer join PostgreSQL's driver reports a column NOT NULL that the join fills with NULL.
   *
   * @param what what keys on it, for the messages: {@code tail}, {@code resumable dump}
   */
  KeyColumns keyColumns(Connection connection, Cancellation cancellation, String what)
      throws SQLException, SourceException, InterruptedException {
    Columns columns;
    List<Integer> nullable = new ArrayList<>();
    List<KeyUniqueness.Answer> uniqueness = new ArrayList<>();
    // Registered for cancellation too: MariaDB runs the derived table even under WHERE 1 = 0.
    // Bounded too: it reads no row, but waits for any lock that keeps the table from being read.
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT * FROM (" + store.query() + ") dfe_q WHERE 1 = 0")) {
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      columns =
          StoreTransaction.query(
              statement,
              cancellation,
              rows -> {
                ResultSetMetaData meta = rows.getMetaData();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                  if (meta.isNullable(i) != ResultSetMetaData.columnNoNulls) {
                    nullable.add(i);
                  }
                }
                Columns found = Columns.ofQuery(rows, database.settings().dialect(), name);
                uniqueness.add(
                    KeyUniqueness.of(
                        connection,
                        meta,
                        keyPositions(found, store.key()),
                        database.settings().dialect(),
                        store.query(),
                        database.settings().queryTimeoutSecs()));
                return found;
              });
    }
    List<String> labels = new ArrayList<>();
    for (String wanted : store.key()) {
      Optional<String> label =
          columns.indexOf(wanted) > 0
              ? Optional.of(wanted)
              : columns.all().stream()
                  .map(Columns.Column::label)
                  .filter(candidate -> candidate.equalsIgnoreCase(wanted))
                  .findFirst();
      if (label.isEmpty()) {
        throw notAColumn(wanted, columns);
      }
      labels.add(label.get());
    }
    Columns.Kind firstKind = columns.all().get(columns.indexOf(labels.get(0)) - 1).kind();
    KeyUniqueness.Answer unique = uniqueness.get(0);
    checkUnique(unique, what);
    boolean mayBeNull =
        unique.verdict() != KeyUniqueness.Verdict.UNIQUE
            || labels.stream().anyMatch(label -> nullable.contains(columns.indexOf(label)))
            || labels.stream().anyMatch(label -> mayHoldZeroDate(columns, label));
    return new KeyColumns(labels, firstKind, mayBeNull);
  }

  /**
   * Whether {@code label} is a MariaDB/MySQL date column that may hold a zero date, which the
   * driver reads as NULL and {@code IS NULL} finds even in a NOT NULL column: it needs the NULL
   * check whatever the metadata says.
   */
  private static boolean mayHoldZeroDate(Columns columns, String label) {
    return switch (columns.all().get(columns.indexOf(label) - 1).kind()) {
      case DATE_OR_ZERO, TIMESTAMP_OR_ZERO, TIMESTAMP_WITH_ZONE_OR_ZERO -> true;
      default -> false;
    };
  }

  /** The 1-based positions of the key's columns that the result has (exact or case-folded). */
  private static List<Integer> keyPositions(Columns columns, List<String> key) {
    List<Integer> positions = new ArrayList<>();
    for (String wanted : key) {
      for (Columns.Column column : columns.all()) {
        if (column.label().equalsIgnoreCase(wanted)) {
          positions.add(columns.indexOf(column.label()));
          break;
        }
      }
    }
    return positions;
  }

  private void checkUnique(KeyUniqueness.Answer answer, String what) throws SourceException {
    switch (answer.verdict()) {
      case NOT_UNIQUE ->
          throw new SourceException(
              name
                  + ": the "
                  + what
                  + " key ("
                  + String.join(", ", store.key())
                  + ") is not unique in "
                  + answer.table()
                  + ": no primary key or unique index lies within it, and rows with equal keys at a"
                  + " page boundary would be passed over for good; add to the key columns that"
                  + " make it unique, such as the table's primary key");
      case UNKNOWN -> {
        if (!warnedKeyUnknown) {
          warnedKeyUnknown = true;
          LOG.warn(
              "event=key_unchecked store={} key={} reason=\"the database cannot say whether"
                  + " the key is unique (a join, an expression, or a driver that does not name the"
                  + " query's tables); rows with equal keys at a page boundary would be lost\"",
              name,
              String.join(",", store.key()));
        }
      }
      case UNIQUE -> {}
    }
  }

  /** The 1-based indexes of the key columns {@code key} in a page's {@code columns}. */
  int[] indexes(Columns columns, List<String> key) throws SourceException {
    int[] indexes = new int[key.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = columns.indexOf(key.get(i));
      if (indexes[i] < 0) {
        throw notAColumn(store.key().get(i), columns);
      }
    }
    return indexes;
  }

  /**
   * Binds the key after which the page reads, from parameter 1, as the dialect's comparison needs
   * its values; returns the next free parameter.
   */
  int bindAfter(PreparedStatement statement, Optional<KeysetMark> after) throws SQLException {
    Dialect dialect = database.settings().dialect();
    int parameter = 1;
    if (after.isPresent()) {
      List<KeysetMark.Value> values = after.get().values();
      for (int column : dialect.afterKeyParameters(values.size())) {
        KeyValues.bind(statement, parameter++, values.get(column), dialect);
      }
    }
    return parameter;
  }

  /**
   * Fails the tick when a row's key is NULL. A page after the last key ({@code k > ?}) never
   * returns such a row, so without this check it would be passed over in silence. Run every tick
   * unless {@link #keyColumns} found the key unique and NOT NULL in the one table the query reads
   * (a primary key).
   *
   * @param what what keys on it, for the message: {@code tail}, {@code resumable dump}
   */
  void refuseNullKeys(
      Connection connection, List<String> key, Cancellation cancellation, String what)
      throws SQLException, SourceException, InterruptedException {
    Dialect dialect = database.settings().dialect();
    try (PreparedStatement statement =
        connection.prepareStatement(dialect.anyNullKey(store.query(), key))) {
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      boolean found = StoreTransaction.query(statement, cancellation, ResultSet::next);
      if (found) {
        throw new SourceException(
            name
                + ": a row's key ("
                + String.join(", ", store.key())
                + ") is NULL; a keyset key must never be NULL: filter such rows out in the query"
                + " (WHERE key IS NOT NULL) or key the "
                + what
                + " on columns that are never NULL");
      }
    }
  }

  private SourceException notAColumn(String wanted, Columns columns) {
    return new SourceException(
        name
            + ": key column \""
            + wanted
            + "\" is not a column of the query's result (its columns: "
            + String.join(", ", columns.all().stream().map(Columns.Column::label).toList())
            + ")");
  }
}
