package dfe.fetcher.core.envelope;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Arbitrary JSON texts, written in every spelling the grammar allows: strings with raw and escaped
 * characters (astral ones raw and as surrogate-pair escapes, lone surrogates escaped), numbers of
 * every form, whitespace between every token, nested containers.
 */
final class JsonTexts {

  private JsonTexts() {}

  /** A JSON value nested at most {@code depth} containers deep. */
  static Arbitrary<String> value(int depth) {
    if (depth == 0) {
      return scalar();
    }
    return Arbitraries.frequencyOf(
        Tuple.of(4, scalar()),
        Tuple.of(1, Arbitraries.lazy(() -> array(depth - 1))),
        Tuple.of(2, Arbitraries.lazy(() -> object(depth - 1))));
  }

  static Arbitrary<String> scalar() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, string()),
        Tuple.of(4, number()),
        Tuple.of(1, Arbitraries.of("true", "false", "null")));
  }

  static Arbitrary<String> array(int depth) {
    return Combinators.combine(value(depth).list().ofMaxSize(4), whitespace().list().ofSize(10))
        .as(
            (items, spaces) -> {
              StringBuilder out = new StringBuilder("[").append(spaces.get(0));
              for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                  out.append(spaces.get(1 + i % 4)).append(',').append(spaces.get(5 + i % 4));
                }
                out.append(items.get(i));
              }
              return out.append(spaces.get(9)).append(']').toString();
            });
  }

  static Arbitrary<String> object(int depth) {
    Arbitrary<String> member =
        Combinators.combine(
                string(), whitespace(), whitespace(), value(depth), Arbitraries.of(true, false))
            .as(
                (key, before, after, value, padded) ->
                    key + before + ':' + after + value + (padded ? " " : ""));
    return Combinators.combine(member.list().ofMaxSize(5), whitespace(), whitespace())
        .as((members, open, close) -> "{" + open + String.join("," + open, members) + close + "}");
  }

  static Arbitrary<String> whitespace() {
    Arbitrary<String> some =
        Arbitraries.of(" ", "\t", "\n", "\r", "\r\n", "  \t ")
            .list()
            .ofMinSize(1)
            .ofMaxSize(3)
            .map(pieces -> String.join("", pieces));
    return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just("")), Tuple.of(1, some));
  }

  /** A string literal, quotes included, each character written raw or escaped. */
  static Arbitrary<String> string() {
    return Combinators.combine(codePoint(), spelling())
        .as(JsonTexts::spelled)
        .list()
        .ofMaxSize(12)
        .map(pieces -> '"' + String.join("", pieces) + '"');
  }

  private static Arbitrary<Integer> codePoint() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.integers().between(0x20, 0x7e)),
        Tuple.of(2, Arbitraries.of((int) '"', (int) '\\', (int) '/', 0x7f)),
        Tuple.of(2, Arbitraries.integers().between(0, 0x1f)),
        Tuple.of(2, Arbitraries.integers().between(0x80, 0x7ff)),
        Tuple.of(2, Arbitraries.integers().between(0x800, 0xffff)),
        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)),
        Tuple.of(
            1, Arbitraries.of(0xd7ff, 0xe000, 0xfffd, 0xfffe, 0xffff, 0x10000, 0x10ffff, 0x1f600)));
  }

  /** 0: raw where JSON allows it, 1: a \\u escape (lower case hex), 2: upper case, 3: short. */
  private static Arbitrary<Integer> spelling() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(0)), Tuple.of(3, Arbitraries.integers().between(1, 3)));
  }

  private static String spelled(int codePoint, int spelling) {
    boolean surrogate = codePoint >= 0xd800 && codePoint <= 0xdfff;
    String shortEscape = shortEscape(codePoint);
    boolean mustEscape = codePoint < 0x20 || codePoint == '"' || codePoint == '\\' || surrogate;
    if (spelling == 0 && !mustEscape) {
      return new String(Character.toChars(codePoint));
    }
    if (spelling == 3 && shortEscape != null) {
      return shortEscape;
    }
    StringBuilder out = new StringBuilder();
    for (char unit : Character.toChars(codePoint)) {
      String hex = String.format("%04x", (int) unit);
      out.append("\\u").append(spelling == 2 ? hex.toUpperCase() : hex);
    }
    return out.toString();
  }

  private static String shortEscape(int codePoint) {
    return switch (codePoint) {
      case '"' -> "\\\"";
      case '\\' -> "\\\\";
      case '/' -> "\\/";
      case '\b' -> "\\b";
      case '\f' -> "\\f";
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      default -> null;
    };
  }

  /** Lone surrogates, which only an escape can write. */
  static Arbitrary<String> loneSurrogates() {
    return Arbitraries.integers()
        .between(0xd800, 0xdfff)
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .map(
            units -> {
              StringBuilder out = new StringBuilder("\"a");
              units.forEach(unit -> out.append(String.format("\\u%04X", unit)));
              return out.append("b\"").toString();
            });
  }

  /** A number: sign, integer part, fraction, exponent, each in every allowed form. */
  static Arbitrary<String> number() {
    Arbitrary<String> integer =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.just("0")),
            Tuple.of(
                6,
                Combinators.combine(
                        Arbitraries.strings().withCharRange('1', '9').ofLength(1),
                        Arbitraries.strings().numeric().ofMaxLength(30))
                    .as(String::concat)));
    Arbitrary<String> fraction =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just("")),
            Tuple.of(
                2,
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(25).map(d -> "." + d)));
    Arbitrary<String> exponent =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just("")),
            Tuple.of(
                2,
                Combinators.combine(
                        Arbitraries.of("e", "E"),
                        Arbitraries.of("", "+", "-"),
                        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(4))
                    .as((e, sign, digits) -> e + sign + digits)));
    Arbitrary<String> edges =
        Arbitraries.of(
            "-0",
            "0e5",
            "-0.0",
            "0.000",
            "1E-0",
            "10e-1",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "999999999999999999",
            "1000000000000000000",
            "18446744073709551616",
            "1000000000000000000000",
            "123456789012345678.9",
            "0.0000000000000000000001",
            "12345678901234567890123456789e-20");
    return Arbitraries.frequencyOf(
        Tuple.of(1, edges),
        Tuple.of(
            6,
            Combinators.combine(Arbitraries.of("", "-"), integer, fraction, exponent)
                .as((sign, i, f, e) -> sign + i + f + e)));
  }
}
