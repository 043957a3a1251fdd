package dfe.fetcher.runtime.service;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's lifecycle as the service runs it: opened by the first tick that needs it (so a
 * database that is down at start fails that tick, not the process, and the next tick tries again),
 * closed once on shutdown or when a reload replaces or removes the connection.
 */
final class OpenedLazily implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.service");

  private final ConnectionConfig connection;
  private final SourceRuntime runtime;
  private OpenConnection opened;
  private boolean closed;

  /** What each unit's source runs when it has something to read early, by unit. */
  private final Map<String, Runnable> wakes = new HashMap<>();

  OpenedLazily(ConnectionConfig connection, SourceRuntime runtime) {
    this.connection = connection;
    this.runtime = runtime;
  }

  /** The source of {@code unit}, opening the connection on its first read. */
  RowSource source(String unit) {
    return new RowSource() {
      @Override
      public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
          throws SourceException, InterruptedException {
        opened().source(unit).read(checkpoint, sink, cancellation);
      }

      @Override
      public void readAfterLostCheckpoint(RowSink sink, Cancellation cancellation)
          throws SourceException, InterruptedException {
        opened().source(unit).readAfterLostCheckpoint(sink, cancellation);
      }

      @Override
      public void wakeOn(Runnable wake) {
        wakeWhenOpen(unit, wake);
      }
    };
  }

  /** Passes {@code wake} to the unit's source now if the connection is open, else when it opens. */
  private synchronized void wakeWhenOpen(String unit, Runnable wake) {
    wakes.put(unit, wake);
    if (opened != null) {
      opened.source(unit).wakeOn(wake);
    }
  }

  private synchronized OpenConnection opened() throws SourceException {
    if (closed) {
      throw new SourceException("connection " + connection.id() + " is closed (reloaded)");
    }
    if (opened == null) {
      try {
        opened = connection.source().open(runtime);
      } catch (SourceException e) {
        throw new SourceException(
            "connection " + connection.id() + " could not be opened: " + e.getMessage(), e);
      }
      LOG.info("event=connection_opened connection={}", connection.id());
      wakes.forEach((unit, wake) -> opened.source(unit).wakeOn(wake));
    }
    return opened;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (opened != null) {
      try {
        opened.close();
        LOG.info("event=connection_closed connection={}", connection.id());
      } catch (RuntimeException e) {
        LOG.warn(
            "event=connection_close_failed connection={} error=\"{}\"",
            connection.id(),
            e.getClass().getSimpleName());
      }
      opened = null;
    }
  }
}
