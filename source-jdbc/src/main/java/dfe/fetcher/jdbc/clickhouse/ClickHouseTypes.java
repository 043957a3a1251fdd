package dfe.fetcher.jdbc.clickhouse;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ClickHouse type mapping: a result column's type, as the answer's type line names it, to the
 * {@link ClickHouseType} that writes its values. The ClickHouse counterpart of the JDBC stores'
 * {@code TypeMapping}, with the same contract: asked once per column when an answer arrives, never
 * per row; a type it does not know is an error naming the column and the type, before the first
 * row, never a guess.
 *
 * <p>It knows the types of ClickHouse 18.16 (Debian's server, the one this is tested against):
 * {@code Int8}...{@code Int64}, {@code UInt8}...{@code UInt64}, {@code Float32/64}, {@code
 * Decimal(P, S)} and {@code Decimal32/64/128(S)}, {@code String}, {@code FixedString(N)}, {@code
 * UUID}, {@code Date}, {@code DateTime} and {@code DateTime('zone')}, {@code Enum8/16}, {@code
 * Array}, {@code Tuple}, {@code Nullable}, {@code LowCardinality}, and {@code Nothing} (a bare
 * NULL). Types later servers added ({@code Int128/256}, {@code UInt128/256}, {@code DateTime64},
 * {@code Date32}, {@code IPv4/IPv6}, {@code Map}, {@code Bool}, ...) are not known: a query that
 * returns one fails, naming it; cast it in the query ({@code toString(ip)}).
 */
final class ClickHouseTypes {

  private static final Map<String, ScalarKind> SIMPLE =
      Map.ofEntries(
          Map.entry("Int8", ScalarKind.INTEGER),
          Map.entry("Int16", ScalarKind.INTEGER),
          Map.entry("Int32", ScalarKind.INTEGER),
          Map.entry("Int64", ScalarKind.INTEGER),
          Map.entry("UInt8", ScalarKind.INTEGER),
          Map.entry("UInt16", ScalarKind.INTEGER),
          Map.entry("UInt32", ScalarKind.INTEGER),
          Map.entry("UInt64", ScalarKind.INTEGER),
          Map.entry("Float32", ScalarKind.FLOAT32),
          Map.entry("Float64", ScalarKind.FLOAT64),
          Map.entry("String", ScalarKind.STRING),
          Map.entry("UUID", ScalarKind.UUID),
          Map.entry("Date", ScalarKind.DATE),
          Map.entry("Nothing", ScalarKind.NOTHING));

  private static final Map<String, ScalarKind> WITH_ARGUMENTS =
      Map.of(
          "Decimal", ScalarKind.DECIMAL,
          "Decimal32", ScalarKind.DECIMAL,
          "Decimal64", ScalarKind.DECIMAL,
          "Decimal128", ScalarKind.DECIMAL,
          "FixedString", ScalarKind.STRING,
          "Enum8", ScalarKind.ENUM,
          "Enum16", ScalarKind.ENUM);

  private ClickHouseTypes() {}

  /** A type the mapping does not know: the message names the column and the type. */
  static final class UnknownTypeException extends Exception {
    private static final long serialVersionUID = 1L;

    UnknownTypeException(String column, String type, String part) {
      super(
          "column \""
              + column
              + "\" has type \""
              + type
              + "\""
              + (part.equals(type) ? "" : " (of which \"" + part + "\")")
              + ", which the clickhouse type mapping does not know (it maps ClickHouse 18.16's"
              + " types); cast it in the query to a type it maps (for example toString(...)), see"
              + " docs/sources-db.md#clickhouse-engine-clickhouse");
    }
  }

  /**
   * The type of column {@code column} named {@code text}; a DateTime without a zone of its own is
   * printed in {@code serverZone}.
   */
  static ClickHouseType parse(String column, String text, ZoneId serverZone)
      throws UnknownTypeException {
    Parser parser = new Parser(column, text, serverZone);
    ClickHouseType type = parser.type();
    if (parser.at != text.length()) {
      throw new UnknownTypeException(column, text, text.substring(parser.at));
    }
    return type;
  }

  private static final class Parser {
    private final String column;
    private final String text;
    private final ZoneId serverZone;
    private int at;

    Parser(String column, String text, ZoneId serverZone) {
      this.column = column;
      this.text = text;
      this.serverZone = serverZone;
    }

    ClickHouseType type() throws UnknownTypeException {
      skipSpaces();
      int start = at;
      while (at < text.length()
          && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
        at++;
      }
      String family = text.substring(start, at);
      boolean hasArguments = at < text.length() && text.charAt(at) == '(';
      ClickHouseType type = hasArguments ? withArguments(start, family) : simple(family);
      if (type == null) {
        int end = hasArguments ? skipArguments(at) : at;
        throw new UnknownTypeException(column, text, text.substring(start, end));
      }
      return type;
    }

    private ClickHouseType simple(String family) {
      if (family.equals("DateTime")) {
        return new ClickHouseType.Scalar(family, ScalarKind.DATETIME, serverZone);
      }
      ScalarKind kind = SIMPLE.get(family);
      return kind == null ? null : new ClickHouseType.Scalar(family, kind, ZoneOffset.UTC);
    }

    private ClickHouseType withArguments(int start, String family) throws UnknownTypeException {
      switch (family) {
        case "Array" -> {
          at++;
          ClickHouseType element = type();
          close();
          return new ClickHouseType.ArrayOf(text.substring(start, at), element);
        }
        case "Nullable" -> {
          at++;
          ClickHouseType inner = type();
          close();
          return new ClickHouseType.NullableOf(text.substring(start, at), inner);
        }
        case "LowCardinality" -> {
          // Only how the server stores it: its values are its inner type's.
          at++;
          ClickHouseType inner = type();
          close();
          return inner;
        }
        case "Tuple" -> {
          at++;
          List<ClickHouseType> elements = new ArrayList<>();
          do {
            elements.add(type());
            skipSpaces();
          } while (consume(','));
          close();
          return new ClickHouseType.TupleOf(text.substring(start, at), elements);
        }
        case "DateTime" -> {
          int end = skipArguments(at);
          Optional<ZoneId> zone = zoneArgument(text.substring(at + 1, end - 1).trim());
          if (zone.isEmpty()) {
            return null;
          }
          at = end;
          return new ClickHouseType.Scalar(
              text.substring(start, at), ScalarKind.DATETIME, zone.get());
        }
        default -> {
          ScalarKind kind = WITH_ARGUMENTS.get(family);
          if (kind == null) {
            return null;
          }
          at = skipArguments(at);
          return new ClickHouseType.Scalar(text.substring(start, at), kind, ZoneOffset.UTC);
        }
      }
    }

    /** {@code 'Asia/Kolkata'} as a zone; empty when it is not one this JVM knows. */
    private static Optional<ZoneId> zoneArgument(String quoted) {
      if (quoted.length() < 2 || quoted.charAt(0) != '\'' || !quoted.endsWith("'")) {
        return Optional.empty();
      }
      try {
        return Optional.of(ZoneId.of(quoted.substring(1, quoted.length() - 1)));
      } catch (DateTimeException e) {
        return Optional.empty();
      }
    }

    /** The index after the parenthesis that closes the one at {@code open}, quotes respected. */
    private int skipArguments(int open) {
      int depth = 0;
      boolean quoted = false;
      for (int i = open; i < text.length(); i++) {
        char c = text.charAt(i);
        if (quoted) {
          if (c == '\\') {
            i++;
          } else if (c == '\'') {
            quoted = false;
          }
        } else if (c == '\'') {
          quoted = true;
        } else if (c == '(') {
          depth++;
        } else if (c == ')' && --depth == 0) {
          return i + 1;
        }
      }
      return text.length();
    }

    private void close() throws UnknownTypeException {
      skipSpaces();
      if (!consume(')')) {
        throw new UnknownTypeException(column, text, text.substring(Math.min(at, text.length())));
      }
    }

    private boolean consume(char c) {
      if (at < text.length() && text.charAt(at) == c) {
        at++;
        return true;
      }
      return false;
    }

    private void skipSpaces() {
      while (at < text.length() && text.charAt(at) == ' ') {
        at++;
      }
    }
  }
}
