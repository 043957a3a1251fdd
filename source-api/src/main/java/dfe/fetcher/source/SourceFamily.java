package dfe.fetcher.source;

import dfe.fetcher.source.config.Section;
import java.util.List;

/**
 * A source family: one module ({@code source-file}, {@code source-jdbc}, {@code source-rest}) that
 * owns one section of the configuration, {@code sources.<name>}, and turns each connection in it
 * into a {@link SourceConnection}.
 *
 * <p>The application binds the settings every connection has ({@link #COMMON_CONNECTION_KEYS}:
 * where it lands, how often, whether it runs, its filter) and hands the connection's section to
 * {@link #bind} for the rest. Binding reports every problem through the section (at the node's
 * {@code FILE:LINE:COL} and path) and carries on, so one load reports them all; it checks
 * everything {@code run} would refuse, and opens nothing: no file, socket or pool is touched until
 * {@link SourceConnection#open}. A family keeps no state between binds.
 */
public interface SourceFamily {

  /** The keys of a connection the application binds, whatever the family. */
  List<String> COMMON_CONNECTION_KEYS =
      List.of("topic", "interval_secs", "enabled", "filter", "filter_errors");

  /** The family's key under {@code sources}: {@code file}, {@code db}, {@code rest}. */
  String name();

  /** The keys of a connection this family reads, besides {@link #COMMON_CONNECTION_KEYS}. */
  List<String> connectionKeys();

  /** Every key name this family reads at any depth, for the configuration reference's tests. */
  List<List<String>> knownKeys();

  /**
   * Binds one connection, {@code sources.<name>.<id>}.
   *
   * @param connection the connection's section; its unknown keys are already reported
   * @param context where relative paths resolve and how secrets are read
   * @return the bound connection; when a problem was reported it is not used, so it may hold
   *     defaults in place of what was wrong
   */
  SourceConnection bind(String id, Section connection, BindContext context);
}
