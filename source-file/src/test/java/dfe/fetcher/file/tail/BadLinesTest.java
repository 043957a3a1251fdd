package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.enrich.Enrichment;
import dfe.fetcher.core.enrich.EnrichmentFields;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lines that cannot be records go to the DLQ with their file and offset; the unit reads on. */
class BadLinesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TailHarness tail;

  @AfterEach
  void close() {
    if (tail != null) {
      tail.close();
    }
  }

  private Path write(String name, byte[] bytes) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return file;
  }

  private Path write(String name, String text) throws IOException {
    return write(name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void aLineLongerThanMaxLineBytesGoesToTheDlqWholeAndTheNextLineLands() throws IOException {
    tail = TailSpecs.in(dir, "*.log").maxLineBytes(10).harness();
    Path file = write("app.log", "short\n" + "y".repeat(25) + "\nafter\n");

    tail.read();

    assertThat(tail.values()).containsExactly("short", "after");
    assertThat(tail.bad)
        .singleElement()
        .satisfies(
            bad -> {
              assertThat(bad.place()).isEqualTo(file + ":6");
              assertThat(bad.reason()).contains("25 bytes").contains("25 > 10");
              assertThat(bad.content()).isEqualTo("y".repeat(10));
            });
  }

  @Test
  void aLongLineWithoutItsNewlineYetIsHeldNotSplit() throws IOException {
    tail = TailSpecs.in(dir, "*.log").maxLineBytes(10).harness();
    write("app.log", "z".repeat(40));
    tail.read();
    assertThat(tail.bad).isEmpty();

    write("app.log", "z\nok\n");
    tail.read();

    assertThat(tail.bad)
        .singleElement()
        .extracting(TailHarness.BadLine::reason)
        .asString()
        .contains("41 bytes");
    assertThat(tail.values()).containsExactly("ok");
  }

  @Test
  void invalidUtf8GoesToTheDlqNamingTheByte() throws IOException {
    tail = TailSpecs.in(dir, "*.log").harness();
    Path file = write("app.log", new byte[] {'o', 'k', '\n', 'a', (byte) 0xc3, '(', '\n'});
    write("app.log", "fine\n");

    tail.read();

    assertThat(tail.values()).containsExactly("ok", "fine");
    assertThat(tail.bad)
        .singleElement()
        .satisfies(
            bad -> {
              assertThat(bad.place()).isEqualTo(file + ":3");
              assertThat(bad.reason()).isEqualTo("not valid UTF-8 at byte 1 of the line");
            });
  }

  @Test
  void aLineThatIsNotJsonGoesToTheDlqWithNdjsonAndTheReasonQuotesNothing() throws IOException {
    tail = TailSpecs.in(dir, "*.log").decoder(TailDecoder.NDJSON).harness();
    Path file =
        write("app.log", "{\"n\":1}\nsecret-token-123 not json\n{\"n\":2} {\"n\":3}\n{\"n\":4}\n");

    tail.read();

    assertThat(tail.values()).containsExactly("1", "4");
    assertThat(tail.bad)
        .extracting(TailHarness.BadLine::place)
        .containsExactly(file + ":8", file + ":34");
    assertThat(tail.bad).allSatisfy(bad -> assertThat(bad.reason()).doesNotContain("secret"));
    assertThat(tail.bad.get(1).reason()).startsWith("not one JSON value");
  }

  @Test
  void theOffsetOfABadLastLineIsCommittedSoItIsNotSentTwice() throws IOException {
    tail = TailSpecs.in(dir, "*.log").decoder(TailDecoder.NDJSON).harness();
    write("app.log", "{\"n\":1}\nnot json\n");
    tail.read();
    tail.restart().read();

    assertThat(tail.bad).hasSize(1);
    assertThat(tail.mark().files().get(0).offset()).isEqualTo(17);
  }

  @Test
  void ndjsonObjectsLandAsWrittenWithTheFileFieldsAndCollidingKeysKept() throws IOException {
    tail = TailSpecs.in(dir, "*.log").decoder(TailDecoder.NDJSON).harness();
    Path file = write("app.log", "{\"n\":1,\"_file_path\":\"mine\"}\n[1,2]\n  {}  \n");

    tail.read();

    assertThat(tail.rows.get(0).get("_file_path_original").asText()).isEqualTo("mine");
    assertThat(tail.rows.get(0).get("_file_path").asText()).isEqualTo(file.toString());
    assertThat(tail.rows.get(1).get("_record").toString()).isEqualTo("[1,2]");
    assertThat(tail.rows.get(2).get("_file_offset").asLong()).isEqualTo(34);
    assertThat(tail.rows.get(2).size()).isEqualTo(2);
  }

  @Test
  void aCollidingKeySpelledWithEscapesIsKeptToo() throws IOException {
    tail = TailSpecs.in(dir, "*.log").decoder(TailDecoder.NDJSON).harness();
    Path file = write("app.log", "{\"\\u005ffile_offset\":7,\"n\":1}\n");

    tail.read();

    assertThat(tail.rows.get(0).get("_file_offset_original").asInt()).isEqualTo(7);
    assertThat(tail.rows.get(0).get("_file_offset").asLong()).isZero();
    assertThat(tail.rows.get(0).get("_file_path").asText()).isEqualTo(file.toString());
  }

  @Test
  void onlyLinesWithoutATopLevelNameTheEnrichmentCouldCollideWithSkipItsLook() throws IOException {
    tail = TailSpecs.in(dir, "*.log").decoder(TailDecoder.NDJSON).harness();
    write(
        "app.log",
        "{\"n\":1}\n{\"_source\":\"mine\",\"n\":2}\n{\"a\":{\"_source\":1}}\n"
            + "{\"\\u005fsource_fetcher\":3}\n[4]\n");

    tail.read();

    assertThat(tail.records)
        .extracting(RawRecord::isWithoutEnrichmentNames)
        .containsExactly(true, false, true, false, true);
    EnrichmentFields fields = new EnrichmentFields(1L, 2L, "logs", "logs.app");
    List<JsonNode> enriched = new ArrayList<>();
    for (RawRecord record : tail.records) {
      enriched.add(JSON.readTree(Enrichment.enrichRecord(record, fields)));
    }
    assertThat(enriched.get(0).get("_source").asText()).isEqualTo("logs");
    assertThat(enriched.get(1).get("_source_original").asText()).isEqualTo("mine");
    assertThat(enriched.get(1).get("_source").asText()).isEqualTo("logs");
    assertThat(enriched.get(2).get("a").get("_source").asInt()).isEqualTo(1);
    assertThat(enriched.get(3).get("_source_fetcher_original").asInt()).isEqualTo(3);
    assertThat(enriched.get(3).get("_source_fetcher").asText()).isEqualTo("logs.app");
    assertThat(enriched.get(4).get("_record").toString()).isEqualTo("[4]");
  }

  @Test
  void blankLinesLandNothingButMoveTheOffset() throws IOException {
    tail = TailSpecs.in(dir, "*.log").decoder(TailDecoder.NDJSON).harness();
    write("app.log", "\n\r\n{\"n\":1}\n\n");

    tail.read();

    assertThat(tail.values()).containsExactly("1");
    assertThat(tail.mark().files().get(0).offset()).isEqualTo(12);
  }

  @Test
  void multilineEventsJoinUntilTheNextStartAndTheLastFlushesOnceQuiet() throws IOException {
    tail =
        TailSpecs.in(dir, "*.log")
            .multiline(
                new MultilineSpec(MultilineSpec.Mode.START, "^\\d{4}-", Duration.ofSeconds(2)))
            .harness();
    Path file = write("app.log", "2026-05-01 boom\n  at a\n  at b\n2026-05-01 next\n");
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(tail.clock.instant()));

    tail.read();
    assertThat(tail.values()).containsExactly("2026-05-01 boom\n  at a\n  at b");

    tail.clock.advance(Duration.ofSeconds(3));
    tail.read();

    assertThat(tail.values()).containsExactly("2026-05-01 boom\n  at a\n  at b", "2026-05-01 next");
    assertThat(tail.field("_file_offset")).containsExactly("0", "30");
  }
}
