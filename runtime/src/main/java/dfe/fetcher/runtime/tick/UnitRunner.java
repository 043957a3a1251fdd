package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.checkpoint.CursorStore;
import dfe.fetcher.core.checkpoint.LoadedCursor;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.SourceException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs ticks of units: loads the unit's checkpoint, lets its source read past it into a fresh
 * {@link UnitTick}, and turns whatever happens into a {@link TickOutcome}. A failure is logged with
 * the unit, the place the source named, and the open snapshot; it never escapes, so the caller goes
 * on with its other units.
 *
 * <p>An {@link OutOfMemoryError} in a tick is that unit's failure too: the tick's memory is
 * released as its stack unwinds, the unit is reported failed and counted, and it is retried on its
 * interval. An error of the JVM that cannot be contained (any other {@link VirtualMachineError} but
 * a stack overflow, or a second out-of-memory error while the first is handled) goes to {@link
 * ProcessHalt}: the process ends non-zero rather than go on with a unit that silently stopped.
 *
 * <p>Each tick gets a {@link Cancellation}; {@link #cancelAll} and {@link #cancelConnection} cancel
 * the running ones (a stop, a reload), which ends whatever their sources block in. A checkpoint of
 * another kind than the unit commits is reported once and treated as none; one that cannot be read
 * is read past as lost ({@link dfe.fetcher.core.row.RowSource#readAfterLostCheckpoint}), not as a
 * first start.
 */
public final class UnitRunner {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.tick");
  private static final String TICK_DONE =
      "event=tick_done unit={} parts={} records={} filtered={} seconds={}";

  private final TickContext context;
  private final ProcessHalt halt;
  private final Map<BoundUnit, Cancellation> running = new ConcurrentHashMap<>();
  private final Map<String, String> reportedCheckpoints = new ConcurrentHashMap<>();
  private final UncommittedMarks uncommitted = new UncommittedMarks();

  public UnitRunner(TickContext context) {
    this(context, ProcessHalt.JVM);
  }

  /** A runner that ends the process through {@code halt}; tests pass one that records. */
  public UnitRunner(TickContext context, ProcessHalt halt) {
    this.context = context;
    this.halt = halt;
  }

  public TickOutcome runTick(BoundUnit unit) {
    return runTick(unit, () -> false);
  }

  /**
   * One tick of {@code unit}; {@code retired} says whether its connection was taken off the
   * schedule meanwhile (a reload), read once the tick is registered, so a reload either finds the
   * tick running and cancels it, or the tick sees the reload and cancels itself.
   */
  public TickOutcome runTick(BoundUnit unit, BooleanSupplier retired) {
    long started = System.nanoTime();
    Cancellation cancellation = new Cancellation();
    UnitTick tick = new UnitTick(context, unit, cancellation, uncommitted);
    running.put(unit, cancellation);
    try {
      if (context.stopping().getAsBoolean()) {
        cancellation.cancel("stopping");
      } else if (retired.getAsBoolean()) {
        cancellation.cancel("reload");
      }
      Optional<TickOutcome> stillUncommitted = commitWhatFailed(unit);
      if (stillUncommitted.isPresent()) {
        return stillUncommitted.get();
      }
      LoadedCursor loaded = checkpointOf(unit);
      Optional<Mark> checkpoint = loaded.mark();
      if (checkpoint.isPresent() && checkpoint.get() instanceof DumpResumeMark open) {
        // What landed, not only what was acknowledged: the snapshot continues after it, or a
        // new one opens.
        Optional<DumpResumeMark> resumed =
            SnapshotResumption.resolve(context.transport(), unit, open);
        resumed.ifPresent(tick::resumeSnapshot);
        checkpoint = resumed.map(Mark.class::cast);
      }
      if (loaded instanceof LoadedCursor.Unreadable) {
        // Not a first start: what the lost checkpoint covered may land again, nothing is skipped.
        unit.source().readAfterLostCheckpoint(tick, cancellation);
      } else {
        unit.source().read(checkpoint, tick, cancellation);
      }
      TickOutcome done = tick.finish();
      if (done instanceof TickOutcome.Failed failed) {
        context.metrics().tickFailed(unit.store());
        LOG.error(
            "event=tick_failed unit={} error=\"{}\"",
            unit.store(),
            LogValues.quoted(failed.reason()));
      } else if (done instanceof TickOutcome.Succeeded succeeded) {
        context.metrics().tickSucceeded(unit.store());
        // An idle tick (nothing new) is the common case of a tail or a settled directory.
        // Not the fluent LOG.atLevel: on Kafka Connect this logs through the worker's slf4j-api,
        // 1.7 in Kafka's distribution, which has no fluent API (Slf4jApiTest).
        boolean idle = succeeded.partsCompleted() == 0 && succeeded.recordsLanded() == 0;
        Object[] fields =
            new Object[] {
              unit.store(),
              succeeded.partsCompleted(),
              succeeded.recordsLanded(),
              succeeded.rowsFiltered(),
              seconds(started)
            };
        if (idle) {
          LOG.debug(TICK_DONE, fields);
        } else {
          LOG.info(TICK_DONE, fields);
        }
      }
      return done;
    } catch (StoppingException e) {
      return stopped(unit, tick);
    } catch (InterruptedException e) {
      if (!cancellation.isCancelled()) {
        Thread.currentThread().interrupt();
      }
      return stopped(unit, tick);
    } catch (SourceException | RuntimeException | LinkageError | StackOverflowError e) {
      if (cancellation.isCancelled()) {
        // A source whose blocking call was cancelled under it may fail in its own words.
        return stopped(unit, tick);
      }
      // A decoder class that fails to load or a runaway recursion is this unit's failure, not
      // the scheduler's: the connection's other units and later ticks still run.
      String where = tick.openSeq().isPresent() ? openSnapshot(tick.openSeq().getAsLong()) : "";
      tick.abort();
      context.metrics().tickFailed(unit.store());
      boolean expected = e instanceof SourceException || e instanceof LandingFailedException;
      String reason = expected ? e.getMessage() : "unexpected failure: " + e;
      LOG.error(
          "event=tick_failed unit={} error=\"{}\"", unit.store(), LogValues.quoted(reason + where));
      if (!expected) {
        LOG.debug("event=tick_failed_trace unit={}", unit.store(), e);
      }
      return new TickOutcome.Failed(reason + where);
    } catch (OutOfMemoryError e) {
      return outOfMemory(unit, tick, e);
    } catch (VirtualMachineError e) {
      halt.halt("unit " + unit.store(), e);
      throw e;
    } finally {
      logUnjudged(unit, tick.filterReport());
      running.remove(unit);
      context.metrics().tickTook(unit.store(), seconds(started));
    }
  }

  /**
   * Ends the process on an error of the JVM that escaped a tick's containment; {@code where} names
   * the connection or unit.
   */
  public void halt(String where, VirtualMachineError error) {
    halt.halt(where, error);
  }

  private TickOutcome outOfMemory(BoundUnit unit, UnitTick tick, OutOfMemoryError error) {
    try {
      String where = tick.openSeq().isPresent() ? openSnapshot(tick.openSeq().getAsLong()) : "";
      tick.abort();
      context.metrics().tickFailed(unit.store());
      String reason = "out of memory (" + error.getMessage() + "); retried on the unit's interval";
      LOG.error(
          "event=tick_failed unit={} error=\"{}\"", unit.store(), LogValues.quoted(reason + where));
      return new TickOutcome.Failed(reason + where);
    } catch (VirtualMachineError again) {
      halt.halt("unit " + unit.store(), again);
      throw again;
    }
  }

  /**
   * Commits the mark {@code unit}'s last commit failed to record, before anything is read: what it
   * covers landed and was acknowledged. Answers the tick's failure while the commit still fails, so
   * the unit lands nothing again meanwhile; empty once there is nothing left to commit.
   */
  private Optional<TickOutcome> commitWhatFailed(BoundUnit unit) {
    Optional<Mark> mark = uncommitted.of(unit.cursorKey());
    if (mark.isEmpty()) {
      return Optional.empty();
    }
    try {
      context.cursors().commit(unit.cursorKey(), mark.get());
    } catch (CursorStore.CheckpointException e) {
      context.metrics().tickFailed(unit.store());
      String reason =
          "unit "
              + unit.store()
              + ": checkpoint still not committed: "
              + e.getMessage()
              + "; nothing is read again until it is";
      LOG.error("event=tick_failed unit={} error=\"{}\"", unit.store(), LogValues.quoted(reason));
      return Optional.of(new TickOutcome.Failed(reason));
    }
    uncommitted.committed(unit.cursorKey());
    context.metrics().checkpointCommitted(unit.store());
    LOG.info(
        "event=checkpoint_committed_late unit={} key={} reason=\"the commit that failed before"
            + " works now\"",
        unit.store(),
        unit.cursorKey());
    return Optional.empty();
  }

  /**
   * The cursor keys of the units whose last commit failed, sorted: while there is one, the service
   * is not ready, for those units land nothing until their checkpoints can be written.
   */
  public List<String> uncommittedKeys() {
    return uncommitted.keys();
  }

  /** Cancels every running tick: the service is stopping. */
  public void cancelAll(String reason) {
    running.values().forEach(cancellation -> cancellation.cancel(reason));
  }

  /** Cancels the running ticks of {@code connection}: it is being reloaded or removed. */
  public void cancelConnection(String connection, String reason) {
    running.forEach(
        (unit, cancellation) -> {
          if (unit.spec().connection().equals(connection)) {
            cancellation.cancel(reason);
          }
        });
  }

  /** The stores of the ticks running now, for a stop that overran its grace. */
  public List<String> runningStores() {
    return running.keySet().stream().map(BoundUnit::store).sorted().toList();
  }

  private LoadedCursor checkpointOf(BoundUnit unit) {
    if (unit.markKind().isEmpty()) {
      return new LoadedCursor.None();
    }
    LoadedCursor found = context.cursors().find(unit.cursorKey());
    Optional<Mark> loaded = found.mark();
    if (loaded.isPresent() && loaded.get().kind() != unit.markKind().get()) {
      String problem =
          "a "
              + loaded.get().kind().wireName()
              + " checkpoint, not "
              + unit.markKind().get().wireName();
      if (!problem.equals(reportedCheckpoints.put(unit.cursorKey(), problem))) {
        LOG.warn(
            "event=checkpoint_of_another_kind unit={} key={} found={} expected={}"
                + " action=start_over",
            unit.store(),
            unit.cursorKey(),
            loaded.get().kind().wireName(),
            unit.markKind().get().wireName());
      }
      // The unit was configured to read another way: its mark says nothing of this way's.
      return new LoadedCursor.None();
    }
    reportedCheckpoints.remove(unit.cursorKey());
    return found;
  }

  private TickOutcome stopped(BoundUnit unit, UnitTick tick) {
    boolean open = tick.openSeq().isPresent();
    tick.abort();
    LOG.info("event=tick_stopped unit={} open_dump_left_without_end={}", unit.store(), open);
    return new TickOutcome.Stopped(open);
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  /**
   * What became of the dump a failure cut: its rows numbered so far were read, not all landed (a
   * batch still buffered or in flight is dropped), so no seq is named as if it had.
   */
  private static String openSnapshot(long rowsRead) {
    return " (snapshot left open without an end after "
        + rowsRead
        + (rowsRead == 1 ? " row" : " rows")
        + " read; rows not yet acknowledged did not land)";
  }

  /** One line per unit and tick, whatever its outcome, when the filter could not judge a row. */
  private static void logUnjudged(BoundUnit unit, FilterStep.Report filtered) {
    if (filtered.unjudged() > 0) {
      LOG.warn(
          "event=filter_errors unit={} rows={} action={} first_reason=\"{}\" setting=filter_errors",
          unit.store(),
          filtered.unjudged(),
          filtered.onError() == FilterErrors.KEEP ? "kept" : "dropped",
          LogValues.quoted(filtered.firstReason().orElse("")));
    }
  }
}
