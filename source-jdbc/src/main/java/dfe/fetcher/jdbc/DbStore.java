package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Shape;
import dfe.fetcher.source.config.ConfigOrigin;
import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One store of a {@code sources.db} connection.
 *
 * @param unit its name, unique in its connection
 * @param enabled false keeps it configured but never run
 * @param shape dump (the whole query every tick, in the envelope) or tail (keyset pages)
 * @param query the operator's SELECT
 * @param rowKey a JSON pointer naming a row's identity
 * @param countFirst a dump runs {@code SELECT COUNT(*)} first, in the same snapshot, into {@code
 *     begin.total}
 * @param zone where timestamps without a zone were written; empty keeps them as written
 * @param key a tail's key columns, in order (labels of the query's result)
 * @param limit a tail's page size
 * @param maxPagesPerTick a tail reads at most this many pages a tick
 * @param settleSecs a tail reads only keys whose first column is older than the database's now less
 *     this (0: off)
 * @param resume whether a dump continues its snapshot after a failed tick ({@code by_key}) or not
 * @param chunkRows a resumable dump's rows a chunk: one query and one commit point each
 * @param settings ClickHouse settings sent with each of the store's queries ({@code
 *     max_execution_time}, {@code max_result_rows}); empty for a JDBC store, which has none
 * @param origin where the store's unit name is written, and {@code path} its config path
 */
public record DbStore(
    String unit,
    boolean enabled,
    Shape shape,
    String query,
    Optional<String> rowKey,
    boolean countFirst,
    Optional<ZoneId> zone,
    List<String> key,
    int limit,
    int maxPagesPerTick,
    int settleSecs,
    DumpResume resume,
    int chunkRows,
    Map<String, String> settings,
    ConfigOrigin origin,
    String path) {

  public static final int DEFAULT_LIMIT = 5_000;
  public static final int DEFAULT_CHUNK_ROWS = 50_000;
  public static final int DEFAULT_MAX_PAGES_PER_TICK = 10;

  public DbStore {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(rowKey, "rowKey");
    Objects.requireNonNull(zone, "zone");
    key = List.copyOf(key);
    Objects.requireNonNull(resume, "resume");
    settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(path, "path");
  }

  /** Whether this is a dump that continues its snapshot after a failed tick. */
  public boolean resumable() {
    return shape == Shape.DUMP && resume == DumpResume.BY_KEY;
  }

  /** Where it is written takes no part in equality: a reload that only moves it changes nothing. */
  @Override
  public boolean equals(Object other) {
    return other instanceof DbStore that
        && unit.equals(that.unit)
        && enabled == that.enabled
        && shape == that.shape
        && query.equals(that.query)
        && rowKey.equals(that.rowKey)
        && countFirst == that.countFirst
        && zone.equals(that.zone)
        && key.equals(that.key)
        && limit == that.limit
        && maxPagesPerTick == that.maxPagesPerTick
        && settleSecs == that.settleSecs
        && resume == that.resume
        && chunkRows == that.chunkRows
        && settings.equals(that.settings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(unit, shape, query, key);
  }
}
