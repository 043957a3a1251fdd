package dfe.fetcher.tick;

import dfe.fetcher.row.Mark;
import dfe.fetcher.row.SourceException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs ticks of units: loads the unit's checkpoint, lets its source read past it into a fresh
 * {@link UnitTick}, and turns whatever happens into a {@link TickOutcome}. A failure is logged with
 * the unit, the place the source named, and the open snapshot; it never escapes, so the caller goes
 * on with its other units.
 */
public final class UnitRunner {

  private static final Logger LOG = LoggerFactory.getLogger(UnitRunner.class);

  private final TickContext context;

  public UnitRunner(TickContext context) {
    this.context = context;
  }

  public TickOutcome runTick(BoundUnit unit) {
    long started = System.nanoTime();
    UnitTick tick = new UnitTick(context, unit);
    try {
      Optional<Mark> checkpoint = context.cursors().load(unit.cursorKey());
      unit.source().read(checkpoint, tick);
      TickOutcome.Succeeded done = tick.finish();
      LOG.info(
          "event=tick_done unit={} parts={} records={} seconds={}",
          unit.store(),
          done.partsCompleted(),
          done.recordsLanded(),
          seconds(started));
      return done;
    } catch (UnitTick.StoppingException e) {
      return stopped(unit, tick);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return stopped(unit, tick);
    } catch (SourceException | RuntimeException | LinkageError | StackOverflowError e) {
      // A decoder class that fails to load or a runaway recursion is this unit's failure, not
      // the scheduler's: the connection's other units and later ticks still run.
      String where =
          tick.openSeq().isPresent()
              ? " (open snapshot at seq " + tick.openSeq().getAsLong() + ", left without an end)"
              : "";
      tick.abort();
      context.metrics().tickFailed(unit.store());
      boolean expected =
          e instanceof SourceException || e instanceof UnitTick.LandingFailedException;
      String reason = expected ? e.getMessage() : "unexpected failure: " + e;
      LOG.error("event=tick_failed unit={} error=\"{}{}\"", unit.store(), reason, where);
      if (!expected) {
        LOG.debug("event=tick_failed_trace unit={}", unit.store(), e);
      }
      return new TickOutcome.Failed(reason + where);
    } finally {
      context.metrics().tickTook(unit.store(), seconds(started));
    }
  }

  private TickOutcome stopped(BoundUnit unit, UnitTick tick) {
    boolean open = tick.openSeq().isPresent();
    tick.abort();
    LOG.info("event=tick_stopped unit={} open_dump_left_without_end={}", unit.store(), open);
    return new TickOutcome.Stopped();
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }
}
