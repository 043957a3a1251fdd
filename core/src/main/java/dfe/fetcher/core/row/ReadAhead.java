package dfe.fetcher.core.row;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A source read on a thread of its own, ahead of the driver: what the source reads and decodes
 * (lines split, JSON checked, records written) runs beside what the driver does with each row
 * (enrichment, the transport's send), so a unit uses two cores where it used one.
 *
 * <p>The source's calls on its sink are handed over in order through a bounded buffer of at most
 * {@code capacity} calls and {@code maxBytes} bytes of rows (a row larger than that still goes, on
 * its own), and made on the driver's thread, as they would have been: the driver sees the same
 * calls in the same order, only later. A source that fills the buffer waits (the driver's pace
 * holds it, as before). While the driver makes one buffer's calls the source fills the next, so at
 * most twice the bounds are held. A driver faster than its source, woken by a first row, gathers
 * more for up to a millisecond (or an eighth of the buffer) before it makes them, so it is not
 * woken once a row; a call that is no row (a part's end, a mark) is made without that wait. {@link
 * RowSink#awaitLanded} is not buffered past: the source waits until the driver has made it, so a
 * queue acknowledges only what landed.
 *
 * <p>Failures keep their place. What the source threw is thrown by {@link #read} once every call it
 * made before is made. What a call of the driver's sink threw (a transport refusing, the tick
 * interrupted) stops the source: its next call on the sink throws {@link InterruptedException} (its
 * thread is interrupted too, to wake it where it blocks), and {@link #read} throws the driver's
 * failure once the source's thread ended. Interrupting the thread in {@link #read} interrupts the
 * source's.
 */
public final class ReadAhead implements RowSource {

  /** How long a driver waiting for calls gathers more once the first came: a millisecond. */
  static final long LINGER_NANOS = 1_000_000;

  private final RowSource source;
  private final String threadName;
  private final int capacity;
  private final long maxBytes;
  // How many calls end a driver's lingering: an eighth of the buffer, at least one.
  private final int batch;

  /**
   * @param threadName the reading thread's name, e.g. {@code dfe-read-ahead-logs.app}
   * @param capacity how many of the source's calls may wait for the driver at most
   * @param maxBytes how many bytes of rows may wait for the driver at most
   */
  public ReadAhead(RowSource source, String threadName, int capacity, long maxBytes) {
    this.source = Objects.requireNonNull(source, "source");
    this.threadName = Objects.requireNonNull(threadName, "threadName");
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1");
    }
    this.capacity = capacity;
    this.maxBytes = maxBytes;
    this.batch = Math.max(1, capacity / 8);
  }

  @Override
  public void wakeOn(Runnable wake) {
    source.wakeOn(wake);
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    readAhead(handOff -> source.read(checkpoint, handOff, cancellation), sink);
  }

  @Override
  public void readAfterLostCheckpoint(RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    readAhead(handOff -> source.readAfterLostCheckpoint(handOff, cancellation), sink);
  }

  /** One of the source's reads, made on the reading thread into the hand-off. */
  @FunctionalInterface
  private interface SourceRead {
    void into(RowSink handOff) throws SourceException, InterruptedException;
  }

  private void readAhead(SourceRead read, RowSink sink)
      throws SourceException, InterruptedException {
    HandOff handOff = new HandOff();
    Thread reader =
        new Thread(
            () -> {
              try {
                read.into(handOff);
              } catch (Throwable e) {
                handOff.sourceFailed(e);
                return;
              }
              handOff.sourceEnded();
            },
            threadName);
    reader.setDaemon(true);
    reader.start();
    try {
      handOff.drainInto(sink);
    } catch (InterruptedException | RuntimeException | Error e) {
      handOff.driverFailed();
      reader.interrupt();
      joinUninterruptibly(reader);
      throw e;
    }
    reader.join();
    handOff.rethrowSourceFailure();
  }

  private static void joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** One call of the source on its sink, made later on the driver's thread. */
  @FunctionalInterface
  private interface Call {
    void on(RowSink sink) throws InterruptedException;
  }

  /**
   * The sink the source sees: it buffers each call; {@link #drainInto} makes them on the driver's
   * sink. One lock guards the buffer and the states.
   */
  private final class HandOff implements RowSink {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition callsWaiting = lock.newCondition();
    private final Condition roomOrDone = lock.newCondition();
    private List<Call> buffer = new ArrayList<>();
    private long bufferedBytes;
    // Whether the buffer holds a call the driver should make at once.
    private boolean urgent;
    private boolean sourceDone;
    private Throwable sourceFailure;
    private boolean driverFailed;
    // Calls the driver has made so far, for a source waiting until one of its own was made.
    private long made;
    private long handed;

    /**
     * Hands over a call that is no row (a part's begin or end, a mark, a wait for the rows to
     * land): the driver makes it, and what is buffered before it, without lingering.
     */
    private long handOver(Call call) throws InterruptedException {
      return handOver(call, 0, true);
    }

    /**
     * Hands one call over, waiting while the buffer is full; returns its number. A driver waiting
     * for calls is woken by the first, and then gathers more for up to {@link #LINGER_NANOS} or
     * until {@code batch} are there, so a driver faster than its source is not woken once a row.
     *
     * @param bytes the bytes of the row the call carries, 0 for another call
     * @param urgent whether the driver should make it at once
     */
    private long handOver(Call call, long bytes, boolean urgent) throws InterruptedException {
      lock.lockInterruptibly();
      try {
        while (!buffer.isEmpty()
            && (buffer.size() >= capacity || bufferedBytes + bytes > maxBytes)
            && !driverFailed) {
          roomOrDone.await();
        }
        if (driverFailed) {
          throw new InterruptedException("the driver stopped taking this source's rows");
        }
        bufferedBytes += bytes;
        buffer.add(call);
        this.urgent |= urgent;
        if (buffer.size() == 1 || buffer.size() >= batch || urgent || bufferedBytes >= maxBytes) {
          callsWaiting.signal();
        }
        return ++handed;
      } finally {
        lock.unlock();
      }
    }

    /** Hands one call over and waits until the driver has made it. */
    private void handOverAndWait(Call call) throws InterruptedException {
      long number = handOver(call);
      lock.lockInterruptibly();
      try {
        while (made < number && !driverFailed) {
          roomOrDone.await();
        }
        if (driverFailed) {
          throw new InterruptedException("the driver stopped taking this source's rows");
        }
      } finally {
        lock.unlock();
      }
    }

    /** A call that must not throw; it is dropped once the driver has failed. */
    private void handOverQuietly(Call call) {
      try {
        handOver(call, 0, false);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    void drainInto(RowSink sink) throws InterruptedException {
      while (true) {
        List<Call> calls;
        lock.lockInterruptibly();
        try {
          while (buffer.isEmpty() && !sourceDone) {
            callsWaiting.await();
          }
          long deadline = System.nanoTime() + LINGER_NANOS;
          while (!sourceDone
              && !urgent
              && buffer.size() < batch
              && bufferedBytes < maxBytes
              && !driverFailed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
              break;
            }
            callsWaiting.awaitNanos(left);
          }
          if (buffer.isEmpty()) {
            return;
          }
          calls = buffer;
          buffer = new ArrayList<>(Math.min(calls.size(), capacity));
          bufferedBytes = 0;
          urgent = false;
          roomOrDone.signalAll();
        } finally {
          lock.unlock();
        }
        for (Call call : calls) {
          call.on(sink);
        }
        lock.lock();
        try {
          made += calls.size();
          roomOrDone.signalAll();
        } finally {
          lock.unlock();
        }
      }
    }

    void sourceEnded() {
      lock.lock();
      try {
        sourceDone = true;
        callsWaiting.signal();
      } finally {
        lock.unlock();
      }
    }

    void sourceFailed(Throwable failure) {
      lock.lock();
      try {
        sourceFailure = failure;
        sourceDone = true;
        callsWaiting.signal();
      } finally {
        lock.unlock();
      }
    }

    void driverFailed() {
      lock.lock();
      try {
        driverFailed = true;
        roomOrDone.signalAll();
      } finally {
        lock.unlock();
      }
    }

    void rethrowSourceFailure() throws SourceException, InterruptedException {
      Throwable failure;
      lock.lock();
      try {
        failure = sourceFailure;
      } finally {
        lock.unlock();
      }
      if (failure == null) {
        return;
      }
      if (failure instanceof SourceException e) {
        throw e;
      }
      if (failure instanceof InterruptedException e) {
        throw e;
      }
      if (failure instanceof RuntimeException e) {
        throw e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      throw new IllegalStateException("the source failed", failure);
    }

    @Override
    public void beginPart(OptionalLong total) throws InterruptedException {
      handOver(sink -> sink.beginPart(total));
    }

    @Override
    public void row(Row row) throws InterruptedException {
      long bytes =
          row.content() instanceof Row.Whole whole
              ? whole.record().length()
              : ((Row.NotKept) row.content()).dlqCopy().length;
      handOver(sink -> sink.row(row), bytes, false);
    }

    @Override
    public void chunkRead() throws InterruptedException {
      handOver(RowSink::chunkRead);
    }

    @Override
    public void inputAhead(long bytes) {
      handOverQuietly(sink -> sink.inputAhead(bytes));
    }

    @Override
    public void inputRead(long bytes) {
      handOverQuietly(sink -> sink.inputRead(bytes));
    }

    @Override
    public void awaitLanded() throws InterruptedException {
      handOverAndWait(RowSink::awaitLanded);
    }

    @Override
    public void endPart(Optional<Mark> position) throws InterruptedException {
      handOver(sink -> sink.endPart(position));
    }

    @Override
    public void abortPart(String reason) throws InterruptedException {
      handOver(sink -> sink.abortPart(reason));
    }

    @Override
    public void skipPart(String place, String reason) throws InterruptedException {
      handOver(sink -> sink.skipPart(place, reason));
    }

    @Override
    public void badRecord(String place, String reason, byte[] content) throws InterruptedException {
      handOver(sink -> sink.badRecord(place, reason, content));
    }

    @Override
    public void skipped(String place, String reason) {
      handOverQuietly(sink -> sink.skipped(place, reason));
    }

    @Override
    public void advance(Mark mark) throws InterruptedException {
      handOver(sink -> sink.advance(mark));
    }
  }
}
