package dfe.fetcher.snapshots;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameParser;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.snapshots.progress.TerminalProgress;
import dfe.fetcher.snapshots.progress.Transfer;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Feeds the frames of files (one JSON object per line, {@code -} for standard input) to a
 * Reassembler or another frame consumer. Blank lines are skipped; a line that is not a frame is
 * reported as {@code FILE:LINE: reason} and skipped; a file that cannot be read is reported and the
 * rest are read. Lines are handled as bytes, never decoded to strings, and no more than one line is
 * held at once.
 */
final class FrameInput {

  private static final int BUFFER_SIZE = 1 << 16;

  private final Consumer<Frame> frames;
  private final FrameParser parser = new FrameParser();
  private final InputStream stdin;
  private final PrintStream diagnostics;
  private final Transfer transfer = new Transfer();
  private long invalidLines;
  private int unreadableFiles;

  FrameInput(Reassembler reassembler, InputStream stdin, PrintStream diagnostics) {
    this(reassembler::accept, stdin, diagnostics);
  }

  /** Hands every frame read to {@code frames}, in the order read. */
  FrameInput(Consumer<Frame> frames, InputStream stdin, PrintStream diagnostics) {
    this.frames = frames;
    this.stdin = stdin;
    this.diagnostics = diagnostics;
  }

  /** Reads every file in order. */
  void readAll(List<String> files) {
    for (String file : files) {
      expectSizeOf(file);
    }
    for (String file : files) {
      if (file.equals("-")) {
        read(file, stdin);
        continue;
      }
      try (InputStream in = new FileInputStream(file)) {
        read(file, in);
      } catch (IOException e) {
        unreadableFiles++;
        diagnostics.println(file + ": cannot read: " + describe(e));
      }
    }
  }

  /**
   * Draws what has been read so far as {@code label}'s progress line on the terminal's stderr, if
   * its setting shows progress; the byte total is the size of the files given.
   */
  TerminalProgress showProgress(String label, Terminal terminal) {
    return TerminalProgress.start(label, terminal.progress(), terminal.err(), transfer::reading);
  }

  /** Adds a regular file's size to the bytes to read; standard input and a pipe have none. */
  private void expectSizeOf(String file) {
    if (file.equals("-")) {
      return;
    }
    try {
      Path path = Path.of(file);
      if (Files.isRegularFile(path)) {
        transfer.expect(Files.size(path));
      }
    } catch (IOException | InvalidPathException e) {
      // Reported when the file is read.
    }
  }

  long invalidLines() {
    return invalidLines;
  }

  /** Whether some file (or topic) could not be read at all. */
  boolean hadUnreadableSource() {
    return unreadableFiles > 0;
  }

  /** Whether every line was a frame and every file could be read. */
  boolean wasClean() {
    return invalidLines == 0 && unreadableFiles == 0;
  }

  private void read(String name, InputStream in) {
    try {
      readLines(name, in);
    } catch (IOException e) {
      unreadableFiles++;
      diagnostics.println(name + ": cannot read: " + describe(e));
    }
  }

  private void readLines(String name, InputStream in) throws IOException {
    byte[] buffer = new byte[BUFFER_SIZE];
    int start = 0;
    int end = 0;
    long lineNumber = 0;
    while (true) {
      int newline = indexOf(buffer, (byte) '\n', start, end);
      if (newline >= 0) {
        accept(name, ++lineNumber, buffer, start, newline);
        start = newline + 1;
        continue;
      }
      if (start > 0) {
        System.arraycopy(buffer, start, buffer, 0, end - start);
        end -= start;
        start = 0;
      }
      if (end == buffer.length) {
        buffer = Arrays.copyOf(buffer, buffer.length * 2);
      }
      int read = in.read(buffer, end, buffer.length - end);
      if (read > 0) {
        transfer.read(read);
      }
      if (read < 0) {
        if (end > start) {
          accept(name, ++lineNumber, buffer, start, end);
        }
        return;
      }
      end += read;
    }
  }

  /** One message of a topic, named {@code TOPIC:PARTITION:OFFSET} in reports. */
  void acceptMessage(String topic, int partition, long offset, byte[] value) {
    if (value == null) {
      invalidLines++;
      diagnostics.println(
          topic
              + ":"
              + partition
              + ":"
              + offset
              + ": a message with no value (a tombstone), not a frame");
      return;
    }
    transfer.read(value.length);
    transfer.row();
    try {
      frames.accept(parser.parse(value, 0, value.length));
    } catch (InvalidFrameException e) {
      // The place is only spelled out for a message that is reported.
      invalidLines++;
      diagnostics.println(topic + ":" + partition + ":" + offset + ": " + e.getMessage());
    }
  }

  /** A source of frames that could not be read at all, e.g. an unreachable cluster. */
  void unreadable(String place, String reason) {
    unreadableFiles++;
    diagnostics.println(place + ": cannot read: " + reason);
  }

  private void accept(String name, long lineNumber, byte[] buffer, int from, int to) {
    while (to > from && isWhitespace(buffer[to - 1])) {
      to--;
    }
    while (from < to && isWhitespace(buffer[from])) {
      from++;
    }
    if (from == to) {
      return;
    }
    transfer.row();
    try {
      frames.accept(parser.parse(buffer, from, to - from));
    } catch (InvalidFrameException e) {
      invalidLines++;
      diagnostics.println(name + ":" + lineNumber + ": " + e.getMessage());
    }
  }

  private static int indexOf(byte[] buffer, byte wanted, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buffer[i] == wanted) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }

  private static String describe(IOException e) {
    String type = e.getClass().getSimpleName();
    return e.getMessage() == null ? type : type + ": " + e.getMessage();
  }
}
