package dfe.fetcher.core.row;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.JsonPointerBasedFilter;
import com.fasterxml.jackson.core.filter.TokenFilter;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.IOException;
import java.util.Optional;

/**
 * A unit's {@code row_key}: a JSON pointer into the record naming its identity. A string is the key
 * as it is, a number or boolean its JSON text; null, an object, an array or nothing at the pointer
 * give no key.
 */
public final class RowKey {

  private static final JsonFactory JSON = new JsonFactory();

  private final JsonPointer pointer;

  private RowKey(JsonPointer pointer) {
    this.pointer = pointer;
  }

  /**
   * The key at {@code pointer}, e.g. {@code /id}.
   *
   * @throws IllegalArgumentException when {@code pointer} is not a JSON pointer
   */
  public static RowKey at(String pointer) {
    try {
      return new RowKey(JsonPointer.compile(pointer));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "\"" + pointer + "\" is not a JSON pointer (it starts with /): " + e.getMessage(), e);
    }
  }

  /** The key of {@code record}, streaming it without building a tree. */
  public Optional<String> of(RawRecord record) {
    return ofPrefix(record.bytes(), record.length());
  }

  /**
   * The key of a record of which only the first {@code length} bytes of {@code prefix} are known: a
   * source that measures a record too long to keep. Found when the pointer's value lies wholly
   * within those bytes, empty otherwise (the parse stops at the value or fails where the bytes
   * end).
   */
  public Optional<String> ofPrefix(byte[] prefix, int length) {
    if (pointer.matches()) {
      return Optional.empty();
    }
    try (JsonParser parser =
        new FilteringParserDelegate(
            JSON.createParser(prefix, 0, length),
            new JsonPointerBasedFilter(pointer),
            TokenFilter.Inclusion.ONLY_INCLUDE_ALL,
            false)) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        return Optional.empty();
      }
      return switch (token) {
        case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE ->
            Optional.of(parser.getText());
        default -> Optional.empty();
      };
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return pointer.toString();
  }
}
