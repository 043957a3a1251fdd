package dfe.fetcher.source;

import dfe.fetcher.core.row.SourceException;
import java.util.List;
import java.util.Optional;

/**
 * One bound connection of a family: its units, and how to open what they share.
 *
 * <p>A value: two bindings of the same settings are {@linkplain Object#equals equal}, which is how
 * a reload tells a changed connection (closed and opened again) from an unchanged one (kept). Its
 * {@code toString} holds no secret.
 */
public interface SourceConnection {

  /** The connection's units, in configuration order, disabled ones included. */
  List<SourceUnit> units();

  /**
   * Opens what the units share (a connection pool, an HTTP client) and returns their sources. The
   * caller closes it on shutdown and on a reload that changes or removes the connection, after
   * every tick reading from it has ended.
   *
   * @throws dfe.fetcher.core.row.SourceException when it cannot be opened; the message names the
   *     connection's setting at fault, never a secret
   */
  OpenConnection open(SourceRuntime runtime) throws SourceException;

  /**
   * What {@code config-check} should point out although it is not wrong (a glob that matches no
   * file right now), each as {@code FILE:LINE:COL: path: message}. Looked at only by {@code
   * config-check}; may touch the file system, never a network.
   */
  default List<String> hints() {
    return List.of();
  }

  /**
   * Tries the connection's credentials with the cheapest call its configuration names (a REST
   * profile's {@code probe}), for {@code config-check --probe}: one request, nothing landed, no
   * checkpoint touched, bounded in time, its outcome naming no secret. Empty when the connection
   * names no probe. Called on a bound connection that is not open; it opens and closes what it
   * needs itself.
   *
   * @throws InterruptedException when the calling thread is interrupted while the call runs
   */
  default Optional<ProbeOutcome> probe(SourceRuntime runtime) throws InterruptedException {
    return Optional.empty();
  }
}
