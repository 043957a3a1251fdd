package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameParser;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.row.SourceException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a file dump hands on lands as a frame the product's own reader (the one {@code snapshots
 * verify} uses) can read, and what it refuses it names by place, never by content.
 */
class ReadableFramesTest {

  private static final int LIMIT = FrameCodec.MAX_RECORD_DEPTH;

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void aByteOrderMarkAtTheStartOfALaterLineIsNotPartOfTheRecord() throws Exception {
    // Two files concatenated, the second written by a Windows tool.
    data.write("data/a.ndjson", "{\"a\":1}\r\n\uFEFF{\"a\":2}\r\n\uFEFF  {\"a\":3}\n", 1);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.records()).containsExactly("{\"a\":1}", "{\"a\":2}", "{\"a\":3}");
    for (String record : sink.records()) {
      assertThat(readAsFrame(record).record().toString()).isEqualTo(record);
    }
  }

  @Test
  void aRecordNestedAsDeepAsTheLimitLandsAsAFrameTheVerifierReads() throws Exception {
    String deepest = nested(LIMIT);
    data.write("data/a.ndjson", deepest + "\n", 1);
    data.write("data/b.json", "[" + deepest + "]", 2);

    RecordingSink sink = data.readAll("data/*.*");

    assertThat(sink.records()).containsExactly(deepest, deepest);
    assertThat(readAsFrame(deepest).record().toString()).isEqualTo(deepest);
  }

  @Test
  void anNdjsonRecordNestedOneLevelDeeperThanTheLimitIsRefusedAtItsPlace() {
    Path file = data.write("data/a.ndjson", "{}\n" + nested(LIMIT + 1) + "\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.ndjson"))
        .isInstanceOf(SourceException.class)
        .hasMessage(
            file
                + ":2:"
                + (LIMIT + 1)
                + ": the record nests deeper than "
                + LIMIT
                + " levels, so its frame could not be read");
  }

  @Test
  void anNdjsonRecordWithANumberLongerThanTheParserTakesIsRefusedNamingThatLimit() {
    Path file = data.write("data/a.ndjson", "{\"n\":" + "1".repeat(1001) + "}\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.ndjson"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":1:")
        .hasMessageEndingWith(
            ": the record holds a number longer than the parser takes, so its frame could not be"
                + " read");
  }

  @Test
  void aJsonArrayElementNestedOneLevelDeeperThanTheLimitIsRefusedAtItsPlace() {
    Path file = data.write("data/a.json", "[{},\n" + nested(LIMIT + 1) + "]", 1);

    assertThatThrownBy(() -> data.readAll("data/*.json"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":2:")
        .hasMessageEndingWith(
            ": the element nests deeper than " + LIMIT + " levels, so its frame could not be read");
  }

  @Test
  void anNdjsonParseErrorNamesLineAndColumnButNotTheRecordsContent() {
    Path file =
        data.write("data/a.ndjson", "{}\n  {\"user\":\"ann\",\"token\":sk_live_S3CRET}\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.ndjson"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":2:25: not valid JSON: unrecognized token, was expecting")
        .hasNoCause()
        .message()
        .doesNotContain("S3CRET")
        .doesNotContain("ann");
  }

  @Test
  void aJsonArrayParseErrorNamesLineAndColumnButNotTheRecordsContent() {
    Path file = data.write("data/a.json", "[{},\n {\"token\":sk_live_S3CRET}]", 1);

    assertThatThrownBy(() -> data.readAll("data/*.json"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":2:")
        .hasMessageContaining("not valid JSON: unrecognized token")
        .hasNoCause()
        .message()
        .doesNotContain("S3CRET");
  }

  /** {@code depth} arrays, one inside the other. */
  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  /** The row frame the envelope makes of {@code record}, read back as {@code verify} reads it. */
  private static Frame.Row readAsFrame(String record) throws InvalidFrameException {
    SnapshotWriter writer = SnapshotWriter.open("c.u", DataFiles.CLOCK, new UuidV7Generator());
    writer.begin();
    byte[] frame = FrameCodec.encode(writer.row(RawRecord.of(record)));
    return (Frame.Row) new FrameParser().parse(frame);
  }
}
