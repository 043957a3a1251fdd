package dfe.fetcher.rest.http;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * A {@code Content-Encoding: gzip} body, gunzipped, whose lies are said plainly: a body that ends
 * inside its deflate stream, or whose trailer does not match what it held (its CRC-32 or its
 * length), fails with a {@link BadGzip} that says which. Neither message holds anything of the body
 * or the request.
 */
final class GunzippedBody extends FilterInputStream {

  /** The body is not the gzip it says it is; the message says how, in words of our own. */
  static final class BadGzip extends IOException {
    private static final long serialVersionUID = 1L;

    BadGzip(String message, Throwable cause) {
      super(message, cause);
    }
  }

  GunzippedBody(InputStream body) throws IOException {
    super(new GZIPInputStream(body, 64 * 1024));
  }

  @Override
  public int read() throws IOException {
    try {
      return super.read();
    } catch (IOException e) {
      throw said(e);
    }
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    try {
      return super.read(buffer, offset, length);
    } catch (IOException e) {
      throw said(e);
    }
  }

  private static IOException said(IOException e) {
    if (e instanceof EOFException) {
      return new BadGzip("the gzip body ends early (cut short)", e);
    }
    if (e instanceof ZipException) {
      // The JDK's own fixed texts ("Corrupt GZIP trailer", "invalid stored block lengths").
      return new BadGzip("the gzip body is corrupt (" + e.getMessage() + ")", e);
    }
    return e;
  }
}
