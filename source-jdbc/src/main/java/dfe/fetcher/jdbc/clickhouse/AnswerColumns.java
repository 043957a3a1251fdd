package dfe.fetcher.jdbc.clickhouse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An answer's columns, typed once from its header, and the writer of its rows as JSON objects keyed
 * by the column names in column order. Not thread-safe: one per answer.
 */
final class AnswerColumns {

  private static final JsonFactory JSON = new JsonFactory();

  private final List<String> names;
  private final List<ClickHouseType> types;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
  private final ValueBytes scratch = new ValueBytes();

  private AnswerColumns(List<String> names, List<ClickHouseType> types) {
    this.names = List.copyOf(names);
    this.types = List.copyOf(types);
  }

  /** A column of the header's that cannot be landed: two of one name, or a type not mapped. */
  static final class UnusableColumnsException extends Exception {
    private static final long serialVersionUID = 1L;

    UnusableColumnsException(String message) {
      super(message);
    }
  }

  static AnswerColumns of(TsvAnswer.Header header, ZoneId serverZone)
      throws UnusableColumnsException {
    Map<String, Integer> seen = new HashMap<>();
    List<ClickHouseType> types = new ArrayList<>();
    for (int i = 0; i < header.names().size(); i++) {
      String name = header.names().get(i);
      Integer before = seen.putIfAbsent(name, i);
      if (before != null) {
        throw new UnusableColumnsException(
            "the query's result has two columns named \""
                + name
                + "\" (columns "
                + (before + 1)
                + " and "
                + (i + 1)
                + "): a record would lose one of them; give one an alias");
      }
      try {
        types.add(ClickHouseTypes.parse(name, header.types().get(i), serverZone));
      } catch (ClickHouseTypes.UnknownTypeException e) {
        throw new UnusableColumnsException(e.getMessage());
      }
    }
    return new AnswerColumns(header.names(), types);
  }

  List<String> names() {
    return names;
  }

  ClickHouseType type(int column) {
    return types.get(column);
  }

  /** The index of column {@code name}; empty when the result has none of that name. */
  Optional<Integer> indexOf(String name) {
    int index = names.indexOf(name);
    return index < 0 ? Optional.empty() : Optional.of(index);
  }

  /** The answer's current row as JSON. */
  RawRecord write(TsvAnswer answer) throws ClickHouseType.BadValueException {
    buffer.reset();
    byte[] line = answer.line();
    int column = 0;
    try (JsonGenerator json = JSON.createGenerator(buffer)) {
      json.writeStartObject();
      for (; column < types.size(); column++) {
        json.writeFieldName(names.get(column));
        types.get(column).writeField(json, line, answer.start(column), answer.end(column), scratch);
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing a record in memory failed", e);
    } catch (ClickHouseType.BadValueException e) {
      throw new ClickHouseType.BadValueException(
          "column \"" + names.get(column) + "\": " + e.getMessage());
    }
    return RawRecord.of(buffer.toByteArray());
  }

  ValueBytes scratch() {
    return scratch;
  }
}
