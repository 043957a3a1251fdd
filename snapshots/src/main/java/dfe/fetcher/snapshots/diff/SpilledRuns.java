package dfe.fetcher.snapshots.diff;

import dfe.fetcher.core.change.KeyedRow;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The rows of one snapshot sorted by {@link KeyedRow#ORDER} with bounded memory: rows are buffered
 * up to a byte budget, sorted and written to a run file in a directory the caller owns; {@link
 * #sorted} merges the runs, holding one row and a read buffer per run.
 *
 * <p>Not thread-safe. Each open run costs a 64 KiB read buffer while merging; more than 64 runs are
 * first merged 64 at a time into longer runs, so merging holds at most 4 MiB of buffers.
 */
public final class SpilledRuns {

  private static final int BUFFER = 1 << 16;
  private static final int MAX_FAN_IN = 64;

  private final Path directory;
  private final String prefix;
  private final long budgetBytes;
  private final List<KeyedRow> buffer = new ArrayList<>();
  private final List<Path> runs = new ArrayList<>();
  private long buffered;
  private boolean bufferSorted;
  private long rows;
  private int passes;

  public SpilledRuns(Path directory, String prefix, long budgetBytes) {
    this.directory = directory;
    this.prefix = prefix;
    this.budgetBytes = budgetBytes;
  }

  public void add(KeyedRow row) {
    buffer.add(row);
    bufferSorted = false;
    buffered += row.weight();
    rows++;
    if (buffered >= budgetBytes) {
      spill();
    }
  }

  /** Rows added, repeats included. */
  public long rows() {
    return rows;
  }

  public int runs() {
    return runs.size();
  }

  /**
   * Every row added, in order; rows still buffered are merged without being written. May be called
   * again (a snapshot compared with itself) for an independent iterator, once no more rows are
   * added.
   */
  public Iterator<KeyedRow> sorted() {
    // Merge in passes so no more than MAX_FAN_IN runs (and read buffers) are open at once.
    while (runs.size() >= MAX_FAN_IN) {
      List<Path> group = new ArrayList<>(runs.subList(0, MAX_FAN_IN));
      List<Iterator<KeyedRow>> readers = new ArrayList<>();
      for (Path run : group) {
        readers.add(new RunReader(run));
      }
      Path merged = directory.resolve(prefix + "-" + (passes++) + ".merged");
      write(merge(readers), merged);
      for (Path run : group) {
        delete(run);
      }
      runs.subList(0, MAX_FAN_IN).clear();
      runs.add(merged);
    }
    if (!bufferSorted) {
      // Sorting again would break an iterator an earlier call handed out.
      buffer.sort(KeyedRow.ORDER);
      bufferSorted = true;
    }
    List<Iterator<KeyedRow>> sources = new ArrayList<>();
    for (Path run : runs) {
      sources.add(new RunReader(run));
    }
    sources.add(buffer.iterator());
    return merge(sources);
  }

  private void spill() {
    buffer.sort(KeyedRow.ORDER);
    Path run = directory.resolve(prefix + "-" + runs.size() + ".run");
    write(buffer.iterator(), run);
    runs.add(run);
    buffer.clear();
    buffered = 0;
  }

  private static void write(Iterator<KeyedRow> rows, Path run) {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), BUFFER))) {
      while (rows.hasNext()) {
        KeyedRow row = rows.next();
        out.writeInt(row.key().length);
        out.write(row.key());
        out.writeLong(row.seq());
        out.writeLong(row.digest());
        out.writeInt(row.record().length);
        out.write(row.record());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing the sorted run " + run + " failed", e);
    }
  }

  private static void delete(Path run) {
    try {
      Files.delete(run);
    } catch (IOException e) {
      throw new UncheckedIOException("removing the merged run " + run + " failed", e);
    }
  }

  private static Iterator<KeyedRow> merge(List<Iterator<KeyedRow>> sources) {
    record Head(KeyedRow row, Iterator<KeyedRow> source) {}
    PriorityQueue<Head> heads =
        new PriorityQueue<>(
            Math.max(1, sources.size()), (a, b) -> KeyedRow.ORDER.compare(a.row, b.row));
    for (Iterator<KeyedRow> source : sources) {
      if (source.hasNext()) {
        heads.add(new Head(source.next(), source));
      }
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !heads.isEmpty();
      }

      @Override
      public KeyedRow next() {
        Head head = heads.poll();
        if (head == null) {
          throw new NoSuchElementException();
        }
        if (head.source.hasNext()) {
          heads.add(new Head(head.source.next(), head.source));
        }
        return head.row;
      }
    };
  }

  /** Reads a run file back, one row ahead; closes the file at its end. */
  private static final class RunReader implements Iterator<KeyedRow> {
    private final Path run;
    private DataInputStream in;
    private KeyedRow next;

    RunReader(Path run) {
      this.run = run;
      try {
        in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), BUFFER));
      } catch (IOException e) {
        throw new UncheckedIOException("reading the sorted run " + run + " failed", e);
      }
      advance();
    }

    private void advance() {
      try {
        int keyLength;
        try {
          keyLength = in.readInt();
        } catch (EOFException end) {
          in.close();
          next = null;
          return;
        }
        byte[] key = in.readNBytes(keyLength);
        long seq = in.readLong();
        long digest = in.readLong();
        byte[] record = in.readNBytes(in.readInt());
        next = new KeyedRow(key, seq, digest, record);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the sorted run " + run + " failed", e);
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public KeyedRow next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      KeyedRow row = next;
      advance();
      return row;
    }
  }
}
