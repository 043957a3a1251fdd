package dfe.fetcher.rest.http;

import java.io.ByteArrayInputStream;
import java.util.Optional;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The error an object store answered in S3's XML shape ({@code <Error><Code>AccessDenied</Code>
 * <Message>Access Denied</Message>...</Error>}), as a message quotes it: its {@code Code} and
 * {@code Message} only. The rest is left out on purpose: a {@code SignatureDoesNotMatch} answer
 * carries the access key id, the string to sign and the canonical request.
 */
final class S3ErrorText {

  private static final XMLInputFactory XML = factory();

  private S3ErrorText() {}

  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return factory;
  }

  /** {@code : "Code: Message"}; empty when the body is not S3's error shape. */
  static String quoted(byte[] body) {
    Optional<String> code = Optional.empty();
    Optional<String> message = Optional.empty();
    try {
      XMLStreamReader xml = XML.createXMLStreamReader(new ByteArrayInputStream(body));
      try {
        if (xml.nextTag() != XMLStreamConstants.START_ELEMENT
            || !xml.getLocalName().equals("Error")) {
          return "";
        }
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
          String name = xml.getLocalName();
          if (name.equals("Code")) {
            code = Optional.of(xml.getElementText());
          } else if (name.equals("Message")) {
            message = Optional.of(xml.getElementText());
          } else {
            skip(xml);
          }
        }
      } finally {
        xml.close();
      }
    } catch (XMLStreamException | RuntimeException e) {
      // A body cut at the bound, or not XML: what was read of it is enough.
    }
    if (code.isEmpty()) {
      return "";
    }
    String text = code.get() + message.map(m -> ": " + m).orElse("");
    if (text.length() > ErrorText.MAX_CHARS) {
      text = text.substring(0, ErrorText.MAX_CHARS) + "...";
    }
    return ": \"" + text.replace('\n', ' ').replace('\r', ' ') + "\"";
  }

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
}
