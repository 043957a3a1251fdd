package dfe.fetcher.rest.page;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * {@code rows.gzip}: a body that is a sequence of gzip members (RFC 1952; {@code cat a.gz b.gz} is
 * one), inflated member after member as it is read, each member's CRC-32 and length checked. A body
 * that does not start with gzip's magic bytes is read as it is: an object stored with {@code
 * Content-Encoding: gzip} arrives inflated already, as the transport inflates it.
 *
 * <p>Written here rather than with {@link java.util.zip.GZIPInputStream}, which reads a next member
 * only when the stream says bytes are {@link InputStream#available() available} at once, so a body
 * arriving over the network could end silently at a member's end. Here the body's end is the only
 * end: bytes after a member that do not start another one, or a member cut short, fail ({@link
 * Corrupt}, naming the member, counted from 1).
 */
final class GzipMembers extends InputStream {

  /** A body that is not a whole gzip member sequence. */
  static final class Corrupt extends IOException {
    Corrupt(String message) {
      super(message);
    }
  }

  private static final int BUFFER = 64 * 1024;
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private final PushbackInputStream in;
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final byte[] input = new byte[BUFFER];
  private int inputLength;
  private long size;
  private int member = 1;
  private boolean ended;

  private GzipMembers(PushbackInputStream in) throws IOException {
    this.in = in;
    header();
  }

  /** {@code body} inflated when it starts as gzip does; else {@code body} as it is. */
  static InputStream detect(InputStream body) throws IOException {
    PushbackInputStream in = new PushbackInputStream(body, BUFFER);
    byte[] magic = in.readNBytes(2);
    in.unread(magic);
    if (magic.length == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
      return new GzipMembers(in);
    }
    return in;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int read = read(one, 0, 1);
    return read < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    while (!ended) {
      if (inflater.needsInput()) {
        inputLength = in.read(input);
        if (inputLength < 0) {
          throw new Corrupt("gzip member " + member + " is cut short");
        }
        inflater.setInput(input, 0, inputLength);
      }
      int inflated;
      try {
        inflated = inflater.inflate(buffer, offset, length);
      } catch (DataFormatException e) {
        throw new Corrupt("gzip member " + member + " is not valid deflate data");
      }
      if (inflated > 0) {
        crc.update(buffer, offset, inflated);
        size += inflated;
        return inflated;
      }
      if (inflater.needsDictionary()) {
        throw new Corrupt("gzip member " + member + " asks for a preset dictionary");
      }
      if (inflater.finished()) {
        memberEnd();
      }
    }
    return -1;
  }

  /** After a member's data: its trailer, then the next member's header or the body's end. */
  private void memberEnd() throws IOException {
    int remaining = inflater.getRemaining();
    if (remaining > 0) {
      in.unread(input, inputLength - remaining, remaining);
    }
    byte[] trailer = exactly(8, "its trailer");
    long expectedCrc = littleEndian(trailer, 0);
    long expectedSize = littleEndian(trailer, 4);
    if (expectedCrc != crc.getValue()) {
      throw new Corrupt("gzip member " + member + " fails its CRC-32 check");
    }
    if (expectedSize != (size & 0xffffffffL)) {
      throw new Corrupt("gzip member " + member + " has another length than its trailer says");
    }
    int next = in.read();
    if (next < 0) {
      ended = true;
      return;
    }
    in.unread(next);
    member++;
    inflater.reset();
    crc.reset();
    size = 0;
    header();
  }

  private void header() throws IOException {
    byte[] fixed = in.readNBytes(10);
    if (fixed.length < 2 || (fixed[0] & 0xff) != 0x1f || (fixed[1] & 0xff) != 0x8b) {
      throw new Corrupt(
          member == 1
              ? "the body is not gzip"
              : "the bytes after gzip member " + (member - 1) + " are not another gzip member");
    }
    if (fixed.length < 10) {
      throw new Corrupt("gzip member " + member + " ends within its header");
    }
    if (fixed[2] != 8) {
      throw new Corrupt("gzip member " + member + " is not deflate-compressed");
    }
    int flags = fixed[3] & 0xff;
    if ((flags & FEXTRA) != 0) {
      byte[] length = exactly(2, "its header");
      exactly((length[0] & 0xff) | (length[1] & 0xff) << 8, "its header");
    }
    if ((flags & FNAME) != 0) {
      zeroTerminated();
    }
    if ((flags & FCOMMENT) != 0) {
      zeroTerminated();
    }
    if ((flags & FHCRC) != 0) {
      exactly(2, "its header");
    }
  }

  private void zeroTerminated() throws IOException {
    int read;
    do {
      read = in.read();
      if (read < 0) {
        throw new Corrupt("gzip member " + member + " ends within its header");
      }
    } while (read != 0);
  }

  private byte[] exactly(int count, String what) throws IOException {
    byte[] bytes = in.readNBytes(count);
    if (bytes.length < count) {
      throw new Corrupt("gzip member " + member + " ends within " + what);
    }
    return bytes;
  }

  private static long littleEndian(byte[] bytes, int at) {
    return (bytes[at] & 0xffL)
        | (bytes[at + 1] & 0xffL) << 8
        | (bytes[at + 2] & 0xffL) << 16
        | (bytes[at + 3] & 0xffL) << 24;
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    in.close();
  }
}
