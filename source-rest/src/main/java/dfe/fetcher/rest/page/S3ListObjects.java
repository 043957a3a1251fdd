package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A page of S3 ListObjectsV2 ({@code GET /{bucket}?list-type=2}), read with the JDK's streaming XML
 * parser (StAX) as it arrives: each {@code Contents} becomes one item as soon as it closes, {@code
 * {"bucket", "key", "path", "last_modified", "size", "etag"}}, so what is held is one object's
 * entry, never the page. {@code path} is the key, for an item request's path ({@code /{{
 * item.bucket }}/{{ item.path }}}: the template percent-encodes it, keeping {@code /}); {@code
 * last_modified} is S3's {@code LastModified} as written ({@code 2026-12-01T08:10:00.000Z}); {@code
 * etag} is without its quotes. A key that ends in {@code /} with size 0 is the folder marker a
 * console creates, no object: it is no item.
 *
 * <p>The tree kept for the pager is {@code {"NextContinuationToken": ...}} when {@code IsTruncated}
 * is true, else empty: the next page sends it as {@code continuation-token}. A page that is not a
 * {@code ListBucketResult}, an entry without its {@code Key}, {@code LastModified} or {@code Size},
 * a time or size that does not read as one, a truncated page without its token, or a value longer
 * than {@code max_page_bytes} fails the page, naming it and the entry (counted from 0), never a
 * key. DTDs and external entities are refused.
 */
final class S3ListObjects {

  /** The token of a truncated page, sent as the next page's {@code continuation-token}. */
  static final Pager PAGER =
      new CursorPager(
          true,
          "/NextContinuationToken",
          CursorPager.Into.QUERY,
          "continuation-token",
          Optional.empty());

  private static final XMLInputFactory XML = factory();

  private S3ListObjects() {}

  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, false);
    return factory;
  }

  static PageDecoding.Page read(
      Endpoint endpoint, InputStream body, String where, PageDecoding.Rows rows)
      throws SourceException, IOException, InterruptedException {
    long count = 0;
    long entry = 0;
    String bucket = null;
    boolean truncated = false;
    String token = null;
    XMLStreamReader xml = null;
    try {
      xml = XML.createXMLStreamReader(body);
      if (xml.nextTag() != XMLStreamConstants.START_ELEMENT
          || !xml.getLocalName().equals("ListBucketResult")) {
        throw new SourceException(
            where + ": the body is not a ListObjectsV2 answer (no ListBucketResult)");
      }
      while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
        switch (xml.getLocalName()) {
          case "Name" -> bucket = text(xml, endpoint, where, "Name");
          case "IsTruncated" ->
              truncated = text(xml, endpoint, where, "IsTruncated").equals("true");
          case "NextContinuationToken" ->
              token = text(xml, endpoint, where, "NextContinuationToken");
          case "Contents" -> {
            String place = "Contents " + entry++;
            if (bucket == null) {
              throw new SourceException(where + ": " + place + " comes before the bucket's Name");
            }
            Optional<RawRecord> item = contents(xml, endpoint, where, place, bucket);
            if (item.isPresent()) {
              rows.accept(item.get());
              count++;
            }
          }
          default -> skip(xml);
        }
      }
    } catch (XMLStreamException e) {
      if (e.getNestedException() instanceof IOException io) {
        throw io;
      }
      throw new SourceException(
          where
              + ": not a well-formed ListObjectsV2 answer after "
              + entry
              + " entries"
              + (e.getLocation() == null ? "" : ", at line " + e.getLocation().getLineNumber()));
    } finally {
      close(xml);
    }
    if (truncated && (token == null || token.isEmpty())) {
      throw new SourceException(
          where + ": IsTruncated is true but the answer has no NextContinuationToken");
    }
    ObjectNode kept = PageDecoding.TREE.createObjectNode();
    if (truncated) {
      kept.put("NextContinuationToken", token);
    }
    return new PageDecoding.Page(count, Optional.of(kept));
  }

  private static Optional<RawRecord> contents(
      XMLStreamReader xml, Endpoint endpoint, String where, String place, String bucket)
      throws XMLStreamException, SourceException, IOException {
    String key = null;
    String lastModified = null;
    String size = null;
    String etag = null;
    while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
      String name = xml.getLocalName();
      switch (name) {
        case "Key" -> key = text(xml, endpoint, where, place + " Key");
        case "LastModified" -> lastModified = text(xml, endpoint, where, place + " LastModified");
        case "Size" -> size = text(xml, endpoint, where, place + " Size");
        case "ETag" -> etag = text(xml, endpoint, where, place + " ETag");
        default -> skip(xml);
      }
    }
    for (String[] required :
        new String[][] {{"Key", key}, {"LastModified", lastModified}, {"Size", size}}) {
      if (required[1] == null) {
        throw new SourceException(where + ": " + place + " has no " + required[0]);
      }
    }
    try {
      Instant.parse(lastModified);
    } catch (DateTimeParseException e) {
      throw new SourceException(where + ": " + place + " LastModified is not an ISO-8601 time");
    }
    long bytes;
    try {
      bytes = Long.parseLong(size);
    } catch (NumberFormatException e) {
      throw new SourceException(where + ": " + place + " Size is not a whole number");
    }
    if (bytes < 0) {
      throw new SourceException(where + ": " + place + " Size is negative");
    }
    if (bytes == 0 && key.endsWith("/")) {
      return Optional.empty();
    }
    ObjectNode item = PageDecoding.TREE.createObjectNode();
    item.put("bucket", bucket);
    item.put("key", key);
    item.put("path", key);
    item.put("last_modified", lastModified);
    item.put("size", bytes);
    if (etag != null) {
      item.put("etag", unquoted(etag));
    }
    return Optional.of(RawRecord.of(PageDecoding.TREE.writeValueAsBytes(item)));
  }

  private static String unquoted(String etag) {
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
        ? etag.substring(1, etag.length() - 1)
        : etag;
  }

  /** The text of the element just opened, to its end; at most {@code max_page_bytes} chars. */
  private static String text(XMLStreamReader xml, Endpoint endpoint, String where, String name)
      throws XMLStreamException, SourceException {
    StringBuilder text = new StringBuilder();
    while (true) {
      int event = xml.next();
      switch (event) {
        case XMLStreamConstants.CHARACTERS,
            XMLStreamConstants.CDATA,
            XMLStreamConstants.SPACE,
            XMLStreamConstants.ENTITY_REFERENCE -> {
          text.append(xml.getText());
          if (text.length() > endpoint.maxPageBytes()) {
            throw PageDecoding.elementTooLong(endpoint, where, name);
          }
        }
        case XMLStreamConstants.END_ELEMENT -> {
          return text.toString();
        }
        case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION -> {}
        default -> throw new SourceException(where + ": " + name + " holds more than text");
      }
    }
  }

  /** Skips the element just opened, with everything in it. */
  private static void skip(XMLStreamReader xml) throws XMLStreamException {
    int depth = 1;
    while (depth > 0) {
      int event = xml.next();
      if (event == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (event == XMLStreamConstants.END_ELEMENT) {
        depth--;
      }
    }
  }

  private static void close(XMLStreamReader xml) {
    if (xml == null) {
      return;
    }
    try {
      xml.close();
    } catch (XMLStreamException e) {
      // The body is closed by the listing.
    }
  }
}
