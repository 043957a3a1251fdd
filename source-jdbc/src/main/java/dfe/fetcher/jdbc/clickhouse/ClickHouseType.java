package dfe.fetcher.jdbc.clickhouse;

import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.core.row.KeysetMark;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * A result column's ClickHouse type, as {@link ClickHouseTypes} parsed it from the answer's type
 * line, and how one value of it becomes JSON. A value arrives in one of two text forms of
 * ClickHouse's: a top-level {@code TabSeparated} field (escaped with backslashes, {@code \N} for
 * NULL), or, inside an array or a tuple, the quoted form ({@code 'text'}, bare numbers, {@code
 * NULL}). Each variant writes both; nothing is ever a Java object's {@code toString}.
 */
sealed interface ClickHouseType
    permits ClickHouseType.Scalar,
        ClickHouseType.ArrayOf,
        ClickHouseType.TupleOf,
        ClickHouseType.NullableOf {

  /** The type as ClickHouse names it, e.g. {@code Nullable(DateTime('Asia/Kolkata'))}. */
  String name();

  /** Writes the top-level field {@code line[from, to)} (TabSeparated-escaped). */
  void writeField(JsonGenerator json, byte[] line, int from, int to, ValueBytes scratch)
      throws IOException, BadValueException;

  /** Writes the quoted value at {@code cursor}, inside an array or tuple, and moves past it. */
  void writeQuoted(JsonGenerator json, QuotedCursor cursor) throws IOException, BadValueException;

  /** The scalar a key column compares as; null when the type cannot be a key (an array). */
  Scalar keyScalar();

  /** Whether a field of this type may be NULL. */
  default boolean nullable() {
    return false;
  }

  /** A value the text of the answer does not hold in this type's form: the answer is broken. */
  final class BadValueException extends Exception {
    private static final long serialVersionUID = 1L;

    BadValueException(String message) {
      super(message);
    }
  }

  /**
   * A scalar: its kind says how it is written; {@code name} is what a key literal is cast to.
   *
   * @param name the type as ClickHouse names it, without Nullable or LowCardinality
   * @param kind how its values are read and written
   * @param zone for a DateTime, the zone its values are printed in (the column's, else the
   *     server's); UTC otherwise
   */
  record Scalar(String name, ScalarKind kind, java.time.ZoneId zone) implements ClickHouseType {

    public Scalar {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(zone, "zone");
    }

    @Override
    public void writeField(JsonGenerator json, byte[] line, int from, int to, ValueBytes scratch)
        throws IOException, BadValueException {
      scratch.unescapeField(line, from, to);
      kind.write(json, scratch, this);
    }

    @Override
    public void writeQuoted(JsonGenerator json, QuotedCursor cursor)
        throws IOException, BadValueException {
      ValueBytes value = cursor.scalar();
      if (value == null) {
        throw new BadValueException("NULL in a value of type " + name + ", which is not Nullable");
      }
      kind.write(json, value, this);
    }

    @Override
    public Scalar keyScalar() {
      return kind == ScalarKind.NOTHING ? null : this;
    }

    /** A key value of this type from the top-level field, never NULL. */
    KeysetMark.Value key(byte[] line, int from, int to, ValueBytes scratch)
        throws BadValueException {
      scratch.unescapeField(line, from, to);
      return kind.key(scratch, this);
    }
  }

  /** {@code Array(T)}: a JSON array of its elements. */
  record ArrayOf(String name, ClickHouseType element) implements ClickHouseType {

    @Override
    public void writeField(JsonGenerator json, byte[] line, int from, int to, ValueBytes scratch)
        throws IOException, BadValueException {
      QuotedCursor cursor = new QuotedCursor(line, from, to);
      writeQuoted(json, cursor);
      cursor.expectEnd();
    }

    @Override
    public void writeQuoted(JsonGenerator json, QuotedCursor cursor)
        throws IOException, BadValueException {
      cursor.expect('[');
      json.writeStartArray();
      if (!cursor.consumeIf(']')) {
        do {
          element.writeQuoted(json, cursor);
        } while (cursor.consumeIf(','));
        cursor.expect(']');
      }
      json.writeEndArray();
    }

    @Override
    public Scalar keyScalar() {
      return null;
    }
  }

  /** {@code Tuple(T1, T2, ...)}: a JSON array of its elements in order, as ClickHouse's JSON. */
  record TupleOf(String name, List<ClickHouseType> elements) implements ClickHouseType {

    public TupleOf {
      elements = List.copyOf(elements);
    }

    @Override
    public void writeField(JsonGenerator json, byte[] line, int from, int to, ValueBytes scratch)
        throws IOException, BadValueException {
      QuotedCursor cursor = new QuotedCursor(line, from, to);
      writeQuoted(json, cursor);
      cursor.expectEnd();
    }

    @Override
    public void writeQuoted(JsonGenerator json, QuotedCursor cursor)
        throws IOException, BadValueException {
      cursor.expect('(');
      json.writeStartArray();
      for (int i = 0; i < elements.size(); i++) {
        if (i > 0) {
          cursor.expect(',');
        }
        elements.get(i).writeQuoted(json, cursor);
      }
      cursor.expect(')');
      json.writeEndArray();
    }

    @Override
    public Scalar keyScalar() {
      return null;
    }
  }

  /** {@code Nullable(T)}: {@code null}, or the value as {@code T} writes it. */
  record NullableOf(String name, ClickHouseType inner) implements ClickHouseType {

    @Override
    public void writeField(JsonGenerator json, byte[] line, int from, int to, ValueBytes scratch)
        throws IOException, BadValueException {
      if (ValueBytes.isNullField(line, from, to)) {
        json.writeNull();
      } else {
        inner.writeField(json, line, from, to, scratch);
      }
    }

    @Override
    public void writeQuoted(JsonGenerator json, QuotedCursor cursor)
        throws IOException, BadValueException {
      if (cursor.consumeNull()) {
        json.writeNull();
      } else {
        inner.writeQuoted(json, cursor);
      }
    }

    @Override
    public Scalar keyScalar() {
      return inner.keyScalar();
    }

    @Override
    public boolean nullable() {
      return true;
    }
  }
}
