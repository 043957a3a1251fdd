package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The scanner against the token path it stands in for: the same digest for every JSON value, and
 * the same frame or the same error for every line, valid or broken.
 */
class FrameScannerProperties {

  static final String ROW_HEAD =
      "{\"kind\":\"row\",\"snapshot_id\":\"0196a3c2-7e2b-7000-8000-000000000001\","
          + "\"snapshot_at\":\"2026-05-01T12:00:00.123Z\",\"timestamp\":\"2026-05-01T12:00:00.123Z\","
          + "\"store\":\"inventory.hosts\",\"seq\":1,\"record\":";

  @Property(tries = 3000)
  void theScannedDigestOfAnyJsonValueIsCanonicalDigests(@ForAll("values") String value) {
    byte[] json = value.getBytes(StandardCharsets.UTF_8);
    Long expected;
    try {
      expected = CanonicalDigest.of(json);
    } catch (IllegalArgumentException refused) {
      expected = null; // Jackson refuses a lone surrogate escape in a member name
    }
    FrameFields fields = new FrameFields();
    byte[] line = (ROW_HEAD + value + "}").getBytes(StandardCharsets.UTF_8);
    boolean scanned = new FrameScanner(fields).scan(line, 0, line.length);

    Statistics.label("scanned").collect(scanned);
    if (scanned) {
      assertThat(expected).as("Jackson's digest").isNotNull();
      assertThat(fields.record.bytes()).isEqualTo(json);
      assertThat(fields.record.digest()).isEqualTo(expected);
    } else {
      assertThat(value).as("left to Jackson").containsPattern("(?i)\\\\ud[89a-f]");
    }
  }

  @Property(tries = 300)
  void loneSurrogateEscapesAreDigestedAsTheirUnits(@ForAll("loneSurrogates") String value) {
    assertThat(scannedRecord(value).digest())
        .isEqualTo(CanonicalDigest.of(value.getBytes(StandardCharsets.UTF_8)));
  }

  @Property(tries = 3000)
  void theParserGivesTheTokenPathsFrameOrError(
      @ForAll("frames") String frame, @ForAll("mutations") Mutation mutation) {
    byte[] line = mutation.applyTo(frame.getBytes(StandardCharsets.UTF_8));
    // Inside a larger buffer, so offsets are exercised too.
    byte[] buffer = new byte[line.length + 7];
    Arrays.fill(buffer, (byte) '}');
    System.arraycopy(line, 0, buffer, 3, line.length);

    Outcome scanned = Outcome.of(() -> new FrameParser().parse(buffer, 3, line.length));
    Outcome tokens = Outcome.of(() -> new FrameParser().parseTokens(buffer, 3, line.length));

    Statistics.label("mutation").collect(mutation.operation());
    Statistics.label("outcome").collect(tokens.error() == null ? "frame" : "invalid");
    Statistics.label("path")
        .collect(new FrameScanner(new FrameFields()).scan(line, 0, line.length));
    assertThat(scanned).isEqualTo(tokens);
  }

  @Property(tries = 300)
  void oneParserReadingLineAfterLineGivesWhatTheTokenPathGives(
      @ForAll("lineLists") List<String> lines) {
    FrameParser scanning = new FrameParser();
    FrameParser tokens = new FrameParser();
    for (String text : lines) {
      byte[] line = text.getBytes(StandardCharsets.UTF_8);
      assertThat(Outcome.of(() -> scanning.parse(line)))
          .as(text)
          .isEqualTo(Outcome.of(() -> tokens.parseTokens(line, 0, line.length)));
    }
  }

  @Provide
  Arbitrary<List<String>> lineLists() {
    return frames().list().ofMinSize(2).ofMaxSize(8);
  }

  @Provide
  Arbitrary<String> values() {
    return JsonTexts.value(4);
  }

  @Provide
  Arbitrary<String> loneSurrogates() {
    return JsonTexts.loneSurrogates();
  }

  @Provide
  Arbitrary<Mutation> mutations() {
    Arbitrary<Byte> bytes =
        Arbitraries.of(
            (byte) '{',
            (byte) '}',
            (byte) '[',
            (byte) ']',
            (byte) '"',
            (byte) '\\',
            (byte) ',',
            (byte) ':',
            (byte) '0',
            (byte) '-',
            (byte) '.',
            (byte) 'e',
            (byte) 'u',
            (byte) 'a',
            (byte) ' ',
            (byte) '\n',
            (byte) 0x00,
            (byte) 0x1f,
            (byte) 0xff,
            (byte) 0xc3,
            (byte) 0x80,
            (byte) 0xed,
            (byte) 0xf4);
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(new Mutation("none", 0, (byte) 0))),
        Tuple.of(
            3,
            Combinators.combine(
                    Arbitraries.of("delete", "insert", "replace", "truncate"),
                    Arbitraries.doubles().between(0, 1),
                    bytes)
                .as(Mutation::new)));
  }

  /** Frames of every kind, fields in any order, some missing, some of the wrong type. */
  @Provide
  Arbitrary<String> frames() {
    List<Arbitrary<Optional<String>>> members = new ArrayList<>();
    members.add(
        member(
            "kind",
            Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.of("\"begin\"", "\"row\"", "\"oversize\"", "\"end\"")),
                Tuple.of(1, Arbitraries.of("\"r\\u006fw\"", "\"nope\"", "\"\"", "7", "null")))));
    members.add(member("snapshot_id", headString()));
    members.add(member("snapshot_at", headString()));
    members.add(member("timestamp", headString()));
    members.add(member("store", headString()));
    members.add(member("seq", count()));
    members.add(member("total", count()));
    members.add(member("bytes", count()));
    members.add(member("row_count", count()));
    members.add(member("row_key", headString()));
    members.add(member("completed_at", headString()));
    members.add(member("record", JsonTexts.value(3)));
    members.add(member("extra", JsonTexts.value(2)));
    members.add(member("seq", Arbitraries.just("3")).map(seq -> seq.filter(s -> false)));
    Arbitrary<List<String>> present =
        Combinators.combine(members)
            .as(list -> list.stream().flatMap(Optional::stream).toList())
            .flatMap(Arbitraries::shuffle);
    return Combinators.combine(
            present,
            JsonTexts.whitespace(),
            JsonTexts.whitespace(),
            JsonTexts.whitespace(),
            Arbitraries.of(true, false))
        .as(
            (list, open, comma, close, duplicate) -> {
              List<String> all = new ArrayList<>(list);
              if (duplicate && !all.isEmpty()) {
                all.add(all.get(0));
              }
              return open
                  + "{"
                  + open
                  + String.join(comma + "," + comma, all)
                  + close
                  + "}"
                  + close;
            });
  }

  private static Arbitrary<Optional<String>> member(String name, Arbitrary<String> value) {
    return Combinators.combine(
            Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.just(true)), Tuple.of(1, Arbitraries.just(false))),
            value,
            JsonTexts.whitespace())
        .as(
            (present, text, space) ->
                present
                    ? Optional.of("\"" + name + "\"" + space + ":" + space + text)
                    : Optional.empty());
  }

  private static Arbitrary<String> headString() {
    return Arbitraries.frequencyOf(
        Tuple.of(
            8,
            Arbitraries.of(
                "\"0196a3c2-7e2b-7000-8000-000000000001\"",
                "\"2026-05-01T12:00:00.123Z\"",
                "\"inventory.hosts\"",
                "\"host-123\"")),
        Tuple.of(2, JsonTexts.string()),
        Tuple.of(1, JsonTexts.value(1)));
  }

  private static Arbitrary<String> count() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.longs().between(0, 5_000_000_000L).map(Object::toString)),
        Tuple.of(
            1,
            Arbitraries.of(
                "-1",
                "-0",
                "0",
                "4294967295",
                "4294967296",
                "9223372036854775807",
                "9223372036854775808",
                "99999999999999999999",
                "1.0",
                "1e3",
                "\"1\"",
                "true",
                "[1]",
                "{}")),
        Tuple.of(1, JsonTexts.number()));
  }

  static RawRecord scannedRecord(String value) {
    FrameFields fields = new FrameFields();
    byte[] line = (ROW_HEAD + value + "}").getBytes(StandardCharsets.UTF_8);
    assertThat(new FrameScanner(fields).scan(line, 0, line.length)).as("scanned").isTrue();
    return fields.record;
  }

  /** One edit to a line's bytes, at a share of its length. */
  record Mutation(String operation, double where, byte value) {

    byte[] applyTo(byte[] line) {
      int at = (int) (where * line.length);
      int before = Math.min(at, line.length);
      return switch (operation) {
        case "delete" -> at < line.length ? splice(line, at, 1, new byte[0]) : line;
        case "insert" -> splice(line, before, 0, new byte[] {value});
        case "replace" -> at < line.length ? splice(line, at, 1, new byte[] {value}) : line;
        case "truncate" -> Arrays.copyOf(line, before);
        default -> line;
      };
    }

    private static byte[] splice(byte[] line, int at, int remove, byte[] insert) {
      byte[] out = new byte[line.length - remove + insert.length];
      System.arraycopy(line, 0, out, 0, at);
      System.arraycopy(insert, 0, out, at, insert.length);
      System.arraycopy(line, at + remove, out, at + insert.length, line.length - at - remove);
      return out;
    }
  }

  /** A parse's result: the frame with its record's digest, or the error. */
  record Outcome(Frame frame, Long digest, String error) {

    interface Parse {
      Frame run() throws InvalidFrameException;
    }

    static Outcome of(Parse parse) {
      try {
        Frame frame = parse.run();
        Long digest = frame instanceof Frame.Row row ? row.record().digest() : null;
        return new Outcome(frame, digest, null);
      } catch (InvalidFrameException e) {
        return new Outcome(null, null, "invalid: " + e.getMessage());
      } catch (RuntimeException e) {
        return new Outcome(null, null, e.getClass().getName() + ": " + e.getMessage());
      }
    }
  }
}
