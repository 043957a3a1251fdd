package dfe.fetcher.file.dump;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens a file as the bytes its decoder reads: gunzipped when it starts with the gzip magic
 * (whatever its name), without a leading UTF-8 byte order mark.
 */
final class FileContent {

  /** Every buffer on the way from the disk to a decoder is this size, whatever the file's size. */
  static final int BUFFER_BYTES = 64 * 1024;

  private static final int GZIP_MAGIC_0 = 0x1f;
  private static final int GZIP_MAGIC_1 = 0x8b;
  private static final byte[] UTF8_BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

  private FileContent() {}

  /** The content of {@code file}; the caller closes it. */
  static InputStream open(Path file) throws IOException {
    return open(file, bytes -> {});
  }

  /**
   * The content of {@code file}, telling {@code read} how many of the file's own bytes (before any
   * gunzip) each read from the disk took: a buffer's worth at a time.
   */
  static InputStream open(Path file, LongConsumer read) throws IOException {
    InputStream raw =
        new BufferedInputStream(new Counted(Files.newInputStream(file), read), BUFFER_BYTES);
    try {
      InputStream content = isGzip(raw) ? Gunzipped.of(raw) : raw;
      return withoutByteOrderMark(content);
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /** Tells {@code read} the count of every read that got bytes. */
  private static final class Counted extends FilterInputStream {
    private final LongConsumer read;

    Counted(InputStream in, LongConsumer read) {
      super(in);
      this.read = read;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        read.accept(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        read.accept(n);
      }
      return n;
    }
  }

  private static boolean isGzip(InputStream in) throws IOException {
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    return first == GZIP_MAGIC_0 && second == GZIP_MAGIC_1;
  }

  /**
   * Drops a UTF-8 byte order mark: some Windows tools write one, and it is not part of the first
   * record (embedded in a frame it would make the frame invalid JSON).
   */
  private static InputStream withoutByteOrderMark(InputStream in) throws IOException {
    PushbackInputStream pushback = new PushbackInputStream(in, UTF8_BOM.length);
    byte[] start = pushback.readNBytes(UTF8_BOM.length);
    boolean bom = start.length == UTF8_BOM.length;
    for (int i = 0; bom && i < start.length; i++) {
      bom = start[i] == UTF8_BOM[i];
    }
    if (!bom) {
      pushback.unread(start);
    }
    return pushback;
  }

  /**
   * Gunzipped bytes, read across concatenated gzip members (the JDK's stream moves on to the next
   * member while the file has bytes left), with the JDK's bare {@code EOFException} and {@code
   * ZipException} turned into {@link CorruptGzipException}s that say what is wrong with the file.
   *
   * <p>As in the JDK, bytes after the last member that do not start another member are ignored.
   */
  private static final class Gunzipped extends FilterInputStream {

    private Gunzipped(InputStream gunzipped) {
      super(gunzipped);
    }

    static InputStream of(InputStream raw) throws IOException {
      try {
        return new Gunzipped(new GZIPInputStream(raw, BUFFER_BYTES));
      } catch (EOFException e) {
        throw CorruptGzipException.truncated(e);
      } catch (ZipException e) {
        throw CorruptGzipException.corrupt(e);
      }
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (EOFException e) {
        throw CorruptGzipException.truncated(e);
      } catch (ZipException e) {
        throw CorruptGzipException.corrupt(e);
      }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      try {
        return super.read(buffer, offset, length);
      } catch (EOFException e) {
        throw CorruptGzipException.truncated(e);
      } catch (ZipException e) {
        throw CorruptGzipException.corrupt(e);
      }
    }
  }
}
