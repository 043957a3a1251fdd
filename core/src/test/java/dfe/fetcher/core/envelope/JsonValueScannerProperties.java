package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The readers' fast path against the validating parsers it stands in front of: whatever the scanner
 * accepts, both parsers accept as one value (the file readers' parser, configured as they configure
 * it, and Jackson's default one, which the REST decoders {@code ndjson} validate a line with below
 * its string limit); and the values a writer produces, the scanner accepts, so the fast path is the
 * path taken.
 */
class JsonValueScannerProperties {

  private static final JsonFactory PARSER = JsonValueScanner.RECORD_PARSER;

  /** Jackson's defaults, as {@code dfe.fetcher.rest.page.PageDecoding} validates a line. */
  private static final JsonFactory DEFAULT_PARSER = new JsonFactory();

  private final JsonValueScanner scanner = new JsonValueScanner();

  private static boolean parserAccepts(byte[] bytes) {
    return parserAccepts(PARSER, bytes);
  }

  private static boolean parserAccepts(JsonFactory factory, byte[] bytes) {
    try (JsonParser parser = factory.createParser(bytes)) {
      if (parser.nextToken() == null) {
        return false;
      }
      parser.skipChildren();
      return parser.nextToken() == null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private boolean scannerAccepts(byte[] bytes) {
    return scanner.isOneValue(bytes, bytes.length);
  }

  @Provide
  Arbitrary<Object> values() {
    Arbitrary<Object> scalars =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
            Arbitraries.strings().all().ofMaxLength(6).map(s -> (Object) s),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.bigDecimals().map(d -> (Object) d),
            Arbitraries.of(true, false).map(b -> (Object) b),
            Arbitraries.just((Object) "null-literal"));
    return Arbitraries.recursive(
        () -> scalars,
        inner ->
            Arbitraries.oneOf(
                inner.list().ofMaxSize(4).map(list -> (Object) list),
                Arbitraries.maps(Arbitraries.strings().ofMaxLength(6), inner)
                    .ofMaxSize(4)
                    .map(map -> (Object) map)),
        0,
        4);
  }

  private static byte[] written(Object value, boolean pretty) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
      if (pretty) {
        json.useDefaultPrettyPrinter();
      }
      write(json, value);
    }
    return out.toByteArray();
  }

  private static void write(JsonGenerator json, Object value) throws IOException {
    if (value instanceof List<?> list) {
      json.writeStartArray();
      for (Object item : list) {
        write(json, item);
      }
      json.writeEndArray();
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.writeFieldName((String) entry.getKey());
        write(json, entry.getValue());
      }
      json.writeEndObject();
    } else if ("null-literal".equals(value)) {
      json.writeNull();
    } else if (value instanceof String text) {
      json.writeString(text);
    } else if (value instanceof Long number) {
      json.writeNumber(number);
    } else if (value instanceof Double number) {
      if (number.isNaN() || number.isInfinite()) {
        json.writeString(number.toString());
      } else {
        json.writeNumber(number);
      }
    } else if (value instanceof BigDecimal number) {
      json.writeNumber(number);
    } else {
      json.writeBoolean((Boolean) value);
    }
  }

  @Property(tries = 2000)
  void whatAWriterWritesTheScannerAccepts(@ForAll("values") Object value, @ForAll boolean pretty)
      throws IOException {
    byte[] json = written(value, pretty);

    assertThat(scannerAccepts(json)).as(new String(json, StandardCharsets.UTF_8)).isTrue();
    assertThat(parserAccepts(json)).isTrue();
  }

  @Property(tries = 2000)
  void aTopLevelNameBeginningWithAnUnderscoreIsAlwaysTold(
      @ForAll("values") Object value, @ForAll boolean pretty) throws IOException {
    byte[] json = written(value, pretty);

    assertThat(scannerAccepts(json)).isTrue();
    boolean underscore =
        value instanceof Map<?, ?> map
            && map.keySet().stream().anyMatch(key -> ((String) key).startsWith("_"));
    boolean escaped =
        value instanceof Map<?, ?> map
            && map.keySet().stream()
                .anyMatch(
                    key -> ((String) key).chars().anyMatch(c -> c < 0x20 || c == '"' || c == '\\'));
    if (underscore || escaped) {
      assertThat(scanner.topLevelNameMayCollide())
          .as(new String(json, StandardCharsets.UTF_8))
          .isTrue();
    } else {
      assertThat(scanner.topLevelNameMayCollide())
          .as(new String(json, StandardCharsets.UTF_8))
          .isFalse();
    }
  }

  @Example
  void itTellsWhetherTheValueItAcceptedIsAnObject() {
    for (String text : List.of("{}", " \t{\"a\":[1]}\r\n", "{\"a\":{}}")) {
      assertThat(scannerAccepts(text.getBytes(StandardCharsets.UTF_8))).as(text).isTrue();
      assertThat(scanner.isObject()).as(text).isTrue();
    }
    for (String text : List.of("[{}]", " 1", "\"{\"", "null", "[]")) {
      assertThat(scannerAccepts(text.getBytes(StandardCharsets.UTF_8))).as(text).isTrue();
      assertThat(scanner.isObject()).as(text).isFalse();
    }
  }

  @Example
  void onlyTopLevelNamesCount() {
    String[][] cases = {
      {"{\"a\":1,\"b\":{\"_c\":2}}", "false"},
      {"{\"a\":\"_b\"}", "false"},
      {"[{\"_a\":1}]", "false"},
      {"\"_a\"", "false"},
      {"{\"_a\":1}", "true"},
      {"{\"a\":1, \"_\":2}", "true"},
      {"{\"\\u005fa\":1}", "true"},
      {"{\"a\\n\":1}", "true"},
    };
    for (String[] c : cases) {
      byte[] json = c[0].getBytes(StandardCharsets.UTF_8);
      assertThat(scannerAccepts(json)).as(c[0]).isTrue();
      assertThat(scanner.topLevelNameMayCollide()).as(c[0]).isEqualTo(Boolean.parseBoolean(c[1]));
    }
  }

  @Provide
  Arbitrary<Tuple.Tuple3<Integer, Integer, byte[]>> edits() {
    Arbitrary<byte[]> inserted =
        Arbitraries.oneOf(
            Arbitraries.of(
                    "\"",
                    "\\",
                    "{",
                    "}",
                    "[",
                    "]",
                    ",",
                    ":",
                    "0",
                    "1",
                    "-",
                    "+",
                    ".",
                    "e",
                    "E",
                    "t",
                    "true",
                    "n",
                    "u",
                    "\\u",
                    "\\uD800",
                    "\\x",
                    " ",
                    "\t",
                    "\r",
                    "\n",
                    "\u0001",
                    "01",
                    "1.",
                    ".5",
                    "1e",
                    "tru",
                    "nul",
                    "é",
                    "\u20ac",
                    "\uD83D\uDE00")
                .map(s -> s.getBytes(StandardCharsets.UTF_8)),
            Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(3));
    return net.jqwik.api.Combinators.combine(
            Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 3), inserted)
        .as(Tuple::of);
  }

  @Property(tries = 10_000)
  void whatTheScannerAcceptsTheParserAcceptsAsOneValue(
      @ForAll("values") Object value,
      @ForAll("edits") Tuple.Tuple3<Integer, Integer, byte[]> edit,
      @ForAll boolean pretty)
      throws IOException {
    byte[] json = written(value, pretty);
    int at = edit.get1() % (json.length + 1);
    int removed = Math.min(edit.get2(), json.length - at);
    byte[] insert = edit.get3();
    byte[] mutated = new byte[json.length - removed + insert.length];
    System.arraycopy(json, 0, mutated, 0, at);
    System.arraycopy(insert, 0, mutated, at, insert.length);
    System.arraycopy(json, at + removed, mutated, at + insert.length, json.length - at - removed);

    if (scannerAccepts(mutated)) {
      assertThat(parserAccepts(mutated))
          .as("the scanner accepted what the parser refuses: %s", show(mutated))
          .isTrue();
      assertThat(parserAccepts(DEFAULT_PARSER, mutated))
          .as("the scanner accepted what Jackson's default parser refuses: %s", show(mutated))
          .isTrue();
    }
  }

  private static String show(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      int c = b & 0xff;
      out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format("\\x%02x", c));
    }
    return out.toString();
  }

  @Example
  void eachCornerTheParserRefusesTheScannerRefusesToo() {
    List<String> refused =
        List.of(
            "",
            " ",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            "1e",
            "1e+",
            "tru",
            "truex",
            "nul",
            "NaN",
            "\"a",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\u0001\"",
            "[1,]",
            "[,1]",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\":1,}",
            "{a:1}",
            "1 2",
            "{} {}",
            "[1]]",
            "'a'",
            "// c\n1",
            "[1 2]");
    for (String text : refused) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      assertThat(scannerAccepts(bytes)).as(text).isFalse();
      assertThat(parserAccepts(bytes)).as(text).isFalse();
    }
  }

  @Example
  void malformedUtf8InAStringGoesToTheParser() {
    byte[][] malformed = {
      {'"', (byte) 0xc0, (byte) 0x80, '"'}, // overlong
      {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'}, // a surrogate
      {'"', (byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"'}, // past U+10FFFF
      {'"', (byte) 0xe2, (byte) 0x82, '"'}, // cut short
      {'"', (byte) 0x80, '"'} // a lone continuation
    };
    for (byte[] bytes : malformed) {
      assertThat(scannerAccepts(bytes)).as(show(bytes)).isFalse();
    }
    assertThat(scannerAccepts("\"\u20ac\uD83D\uDE00é\"".getBytes(StandardCharsets.UTF_8))).isTrue();
  }

  @Example
  void nestingUpToTheRecordLimitIsAcceptedAndOneDeeperGoesToTheParser() {
    int limit = FrameCodec.MAX_RECORD_DEPTH;
    byte[] deepest = ("[".repeat(limit) + "]".repeat(limit)).getBytes(StandardCharsets.UTF_8);
    byte[] deeper =
        ("[".repeat(limit + 1) + "]".repeat(limit + 1)).getBytes(StandardCharsets.UTF_8);

    assertThat(scannerAccepts(deepest)).isTrue();
    assertThat(parserAccepts(deepest)).isTrue();
    byte[] deepestObject =
        ("{\"a\":".repeat(limit) + "1" + "}".repeat(limit)).getBytes(StandardCharsets.UTF_8);
    assertThat(scannerAccepts(deepestObject)).isTrue();
    assertThat(parserAccepts(deepestObject)).isTrue();
    byte[] longestName = ("{\"" + "n".repeat(50_000) + "\":1}").getBytes(StandardCharsets.UTF_8);
    assertThat(scannerAccepts(longestName)).isTrue();
    assertThat(parserAccepts(longestName)).isTrue();
    for (byte[] accepted : List.of(deepest, deepestObject, longestName)) {
      assertThat(parserAccepts(DEFAULT_PARSER, accepted)).isTrue();
    }
    assertThat(scannerAccepts(deeper)).isFalse();
    assertThat(parserAccepts(deeper)).isFalse();
  }

  @Example
  void aNumberLongerThanTheParsersLimitGoesToTheParser() {
    byte[] longNumber = "1".repeat(1001).getBytes(StandardCharsets.UTF_8);

    assertThat(scannerAccepts(longNumber)).isFalse();
    for (String accepted :
        List.of(
            "1".repeat(1000),
            "-" + "1".repeat(999),
            "1." + "2".repeat(997),
            "1e" + "5".repeat(998))) {
      byte[] bytes = accepted.getBytes(StandardCharsets.UTF_8);
      assertThat(scannerAccepts(bytes)).as(accepted.length() + " characters").isTrue();
      assertThat(parserAccepts(bytes)).as(accepted.length() + " characters").isTrue();
    }
  }
}
