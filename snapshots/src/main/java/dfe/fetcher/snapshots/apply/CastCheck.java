package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.envelope.RawRecord;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Evaluates every typed column's cast of every staged row of a snapshot, without writing anything,
 * and finds a row whose cast would change its value: a PostgreSQL cast truncates a {@code
 * varchar(n)}, rounds a {@code numeric(p,s)} or a {@code timestamp(p)}, and a cast to {@code
 * timestamp} drops the offset a value was written with, all without an error.
 *
 * <p>Contract: {@link #problem} either names the first row found whose value a cast changes (its
 * key, pointer and type) or a column a value does not cast to at all (its pointer and type), or,
 * when it returns empty, every cast of every staged row succeeded and keeps the value as far as its
 * type can say. {@link SnapshotSwap} runs it inside the swap's transaction before it deletes,
 * inserts or publishes anything, so a refused swap has published no change. A failed cast leaves
 * that transaction usable (a savepoint is rolled back); any other database error is thrown.
 *
 * <p>A value is kept when its cast, read back, equals the source text read as the type's family: a
 * character type's text is the source text, a number is the source number, a timestamp is the
 * instant the source names (a source without an offset is UTC: {@link TargetTable} sets the
 * session's time zone). Integer, boolean, {@code text}, array and other types are only cast.
 */
final class CastCheck {

  private final Connection connection;
  private final TableColumns columns;

  CastCheck(TargetTable target) {
    this.connection = target.connection();
    this.columns = target.columns();
  }

  /**
   * Why a row of {@code stage} cannot be cast without loss, naming its key, pointer and type, or
   * why a value does not cast at all, naming the pointer and type; empty when every cast holds.
   */
  Optional<String> problem(String stage) throws SQLException {
    List<TableColumns.Column> typed = new ArrayList<>();
    List<String> holds = new ArrayList<>();
    for (TableColumns.Column column : columns.columns()) {
      if (!column.type().equals("text")) {
        typed.add(column);
        holds.add("(" + keeps(column) + ")");
      }
    }
    if (typed.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder which = new StringBuilder("CASE");
    for (int i = 0; i < typed.size(); i++) {
      which.append(" WHEN NOT ").append(holds.get(i)).append(" THEN ").append(i);
    }
    which.append(" END");
    Savepoint before = connection.setSavepoint();
    try (Statement sql = connection.createStatement();
        ResultSet row =
            sql.executeQuery(
                "SELECT seq, r::text, "
                    + which
                    + " FROM (SELECT seq, record AS r FROM "
                    + stage
                    + ") AS cast_rows WHERE NOT ("
                    + String.join(" AND ", holds)
                    + ") LIMIT 1")) {
      if (!row.next()) {
        connection.releaseSavepoint(before);
        return Optional.empty();
      }
      TableColumns.Column column = typed.get(row.getInt(3));
      Optional<byte[]> key =
          columns.identity().keyOf(RawRecord.of(row.getString(2).getBytes(StandardCharsets.UTF_8)));
      String where =
          key.map(k -> "the row with key " + new String(k, StandardCharsets.UTF_8))
              .orElse("the row at seq " + row.getLong(1));
      return Optional.of(
          where
              + ": the value at "
              + column.pointer()
              + " does not fit "
              + column.type()
              + " without loss (the cast would change it)");
    } catch (SQLException e) {
      if (!RowsFault.isRowsFault(e)) {
        throw e;
      }
      connection.rollback(before);
      return Optional.of(uncastable(stage, typed, e));
    }
  }

  /** Which column's cast failed in {@code failed}, found by casting one column at a time. */
  private String uncastable(String stage, List<TableColumns.Column> typed, SQLException failed)
      throws SQLException {
    for (TableColumns.Column column : typed) {
      Savepoint one = connection.setSavepoint();
      try (Statement sql = connection.createStatement();
          ResultSet row =
              sql.executeQuery(
                  "SELECT count(*) FROM (SELECT record AS r FROM "
                      + stage
                      + ") AS cast_rows WHERE NOT ("
                      + keeps(column)
                      + ")")) {
        connection.releaseSavepoint(one);
      } catch (SQLException e) {
        connection.rollback(one);
        if (!RowsFault.isRowsFault(e)) {
          throw e;
        }
        // The server's message quotes the value: name the place, not the record's content.
        return "a value at "
            + column.pointer()
            + " does not cast to "
            + column.type()
            + " (SQL state "
            + e.getSQLState()
            + ")";
      }
    }
    return RowsFault.reasonOf(failed.getMessage());
  }

  /** A condition true when {@code column}'s cast of {@code r} succeeds and keeps the value. */
  static String keeps(TableColumns.Column column) {
    String source = TableColumns.sourceOf(column.pointer(), "r");
    String cast = column.valueOf("r");
    return source + " IS NULL OR " + sameValue(column.type(), cast, source);
  }

  private static String sameValue(String type, String cast, String source) {
    if (type.endsWith("[]")) {
      return cast + " IS NOT NULL";
    }
    String family = type.replaceAll("\\(.*\\)", "").trim().toLowerCase(Locale.ROOT);
    return switch (family) {
      case "varchar", "character varying", "char", "character", "bpchar" ->
          "(" + cast + ")::text = " + source;
      case "numeric", "decimal" -> "(" + cast + ")::numeric = (" + source + ")::numeric";
      // A float's shortest exact text (extra_float_digits > 0) is every digit it holds; its
      // cast to numeric keeps 15 (6 for real) and would refuse 0.30000000000000004.
      case "real", "double precision", "float", "float4", "float8" ->
          "(" + cast + ")::text::numeric = (" + source + ")::numeric";
      case "timestamp", "timestamp without time zone" ->
          "(" + cast + ") AT TIME ZONE 'UTC' = (" + source + ")::timestamptz";
      case "timestamptz", "timestamp with time zone" ->
          "(" + cast + ") = (" + source + ")::timestamptz";
      case "date" -> "(" + cast + ")::timestamp = (" + source + ")::timestamp";
      case "time", "time without time zone" -> "(" + cast + ") = (" + source + ")::time";
      default -> cast + " IS NOT NULL";
    };
  }
}
