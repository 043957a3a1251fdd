package dfe.fetcher.file.tail;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;

/**
 * One file the unit holds open: the handle stays valid when the file is renamed or deleted, which
 * is how a rotated file is read to its end. A gzip file (magic bytes {@code 1f 8b}) is read as its
 * decompressed content; offsets count decompressed bytes. Not thread-safe.
 */
final class OpenFile implements AutoCloseable {

  private static final int GZIP_BUFFER_BYTES = 64 * 1024;

  private final FileChannel channel;
  private final String identity;
  private final Path openedAt;
  private final boolean gzip;

  private OpenFile(FileChannel channel, String identity, Path openedAt, boolean gzip) {
    this.channel = channel;
    this.identity = identity;
    this.openedAt = openedAt;
    this.gzip = gzip;
  }

  /** Opens {@code path}, known by the file system as {@code identity}. */
  static OpenFile open(Path path, String identity) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      ByteBuffer magic = ByteBuffer.allocate(2);
      while (magic.hasRemaining() && channel.read(magic, magic.position()) > 0) {
        // a short read of a file being written: read on until two bytes or the end
      }
      boolean gzip =
          magic.position() == 2 && magic.get(0) == (byte) 0x1f && magic.get(1) == (byte) 0x8b;
      return new OpenFile(channel, identity, path, gzip);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  String identity() {
    return identity;
  }

  Path openedAt() {
    return openedAt;
  }

  boolean isGzip() {
    return gzip;
  }

  /** The file's size in bytes now (compressed, for a gzip file), through the handle. */
  long size() throws IOException {
    return channel.size();
  }

  /** Reads the first {@code bytes.length} content bytes (fewer at the end); how many were read. */
  int prefix(byte[] bytes) throws IOException {
    try (InputStream in = content(0)) {
      return in.readNBytes(bytes, 0, bytes.length);
    } catch (EOFException e) {
      // a gzip file whose member is cut short: its content is what came before the cut
      return 0;
    }
  }

  /**
   * The content from {@code offset} on. For a plain file positional reads through the handle (the
   * caller bounds them by the size it saw); for a gzip file a new decompression from the start,
   * skipping {@code offset} bytes. Closing the stream leaves the handle open.
   */
  InputStream content(long offset) throws IOException {
    if (!gzip) {
      return new PositionalInput(channel, offset);
    }
    InputStream in = new GZIPInputStream(new PositionalInput(channel, 0), GZIP_BUFFER_BYTES);
    in.skipNBytes(offset);
    return in;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** Reads a channel from a position on without moving the channel's own position. */
  private static final class PositionalInput extends InputStream {
    private final FileChannel channel;
    private long position;

    PositionalInput(FileChannel channel, long position) {
      this.channel = channel;
      this.position = position;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      int read = channel.read(ByteBuffer.wrap(bytes, offset, length), position);
      if (read > 0) {
        position += read;
      }
      return read;
    }

    @Override
    public void close() {
      // the handle belongs to the OpenFile
    }
  }
}
