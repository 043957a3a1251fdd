package dfe.fetcher.rest.page;

import dfe.fetcher.core.envelope.RawRecord;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The pages of one listing told apart by what they hold: a page whose elements are, byte for byte
 * and in order, those of a page read before in the same listing is the listing going round under
 * another URL (a next link with a counter in it, a cursor that changes but lists the same rows),
 * which the check for a request made twice cannot see. A dump that took such pages would end with
 * rows repeated, complete and wrong. Empty pages are never alike: APIs page through empty pages
 * before the rows (a filtered AWS listing). One page's elements are fed in turn ({@link #element})
 * and then the page is closed ({@link #endPage}); not for use by two threads.
 */
final class PageContents {

  /** The first page that held each content: a SHA-256 over each element's length and bytes. */
  private final Map<ByteBuffer, Integer> firstPageOf = new HashMap<>();

  private final MessageDigest page = sha256();
  private long elements;

  /** One element of the page being read, as the decoder read it. */
  void element(RawRecord element) {
    page.update(ByteBuffer.allocate(Integer.BYTES).putInt(element.length()).array());
    page.update(element.bytes());
    elements++;
  }

  /**
   * Ends the page numbered {@code number}.
   *
   * @return the earlier page of the listing that held the same elements; empty when there is none,
   *     or when this page held no element
   */
  OptionalInt endPage(int number) {
    byte[] digest = page.digest();
    long held = elements;
    elements = 0;
    if (held == 0) {
      return OptionalInt.empty();
    }
    Integer earlier = firstPageOf.putIfAbsent(ByteBuffer.wrap(digest), number);
    return earlier == null ? OptionalInt.empty() : OptionalInt.of(earlier);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
