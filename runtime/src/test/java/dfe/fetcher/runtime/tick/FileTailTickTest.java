package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.FileTailMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.file.tail.FileTailSource;
import dfe.fetcher.file.tail.FileTailSpec;
import dfe.fetcher.file.tail.ReadFrom;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File tail units end to end on the embedded default: real files, the real tail source, the tick,
 * the file transport and the cursor store.
 */
class FileTailTickTest {

  private static final String TOPIC = "logs_land";
  private static final String CURSOR = "test.logs.app";

  @TempDir Path directory;
  private Landing landing;
  private final List<FileTailSource> sources = new ArrayList<>();

  @BeforeEach
  void setUp() {
    landing = new Landing(directory);
  }

  @AfterEach
  void close() {
    sources.forEach(FileTailSource::close);
  }

  /** A new source each time: a restart, with nothing but the committed checkpoint. */
  private TickOutcome tick() {
    return tick(new FileTailSpec(List.of(directory.resolve("logs/*.log").toString()), directory));
  }

  private TickOutcome tick(FileTailSpec spec) {
    FileTailSource source =
        new FileTailSource(spec, Clock.systemUTC(), landing.metrics, "logs.app");
    sources.add(source);
    return landing
        .runner()
        .runTick(
            new BoundUnit(
                new UnitSpec("logs", "app", Shape.TAIL, Optional.of("/id")),
                TOPIC,
                "logs",
                source,
                CURSOR,
                () -> RowFilterStage.KEEP_ALL,
                Optional.of(Mark.Kind.FILE_TAIL)));
  }

  private Path append(String text) throws IOException {
    Path file = directory.resolve("logs/app.log");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return file;
  }

  @Test
  void linesLandAsEnrichedTailRecordsAndARestartLandsOnlyWhatIsNew() throws IOException {
    Path file = append("{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);
    append("{\"id\":\"c\"}\n");
    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);
    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);

    List<JsonNode> landed = landing.jsonLines(TOPIC);
    assertThat(landed)
        .extracting(record -> record.get("id").asText())
        .containsExactly("a", "b", "c");
    JsonNode first = landed.get(0);
    assertThat(first.get("_file_path").asText()).isEqualTo(file.toString());
    assertThat(first.get("_file_offset").asLong()).isZero();
    assertThat(first.get("_source_fetcher").asText()).isEqualTo("logs.app");
    assertThat(first.has("kind")).as("no envelope").isFalse();
    Mark committed = landing.cursors.load(CURSOR).orElseThrow();
    assertThat(((FileTailMark) committed).files())
        .singleElement()
        .extracting(FileTailMark.TailedFile::offset)
        .isEqualTo(Files.size(file));
  }

  @Test
  void aTailReadingFromTheEndReadsItsFileAgainFromItsStartWhenItsCheckpointCannotBeRead()
      throws IOException {
    FileTailSpec defaults =
        new FileTailSpec(List.of(directory.resolve("logs/*.log").toString()), directory);
    FileTailSpec fromEnd =
        new FileTailSpec(
            defaults.paths(),
            defaults.exclude(),
            directory,
            ReadFrom.END,
            defaults.decoder(),
            defaults.maxLineBytes(),
            defaults.multiline(),
            defaults.fingerprint(),
            defaults.rotateWait(),
            defaults.ignoreOlder(),
            defaults.globInterval(),
            defaults.maxOpenFiles());
    Path file = append("{\"id\":\"before the first start\"}\n");
    assertThat(tick(fromEnd)).isInstanceOf(TickOutcome.Succeeded.class);
    append("{\"id\":\"a\"}\n");
    assertThat(tick(fromEnd)).isInstanceOf(TickOutcome.Succeeded.class);
    Files.writeString(landing.cursors.fileOf(CURSOR), "#not json#");
    append("{\"id\":\"b\"}\n");

    assertThat(tick(fromEnd)).isInstanceOf(TickOutcome.Succeeded.class);

    // Duplicates rather than a gap: b, written while the checkpoint was lost, lands.
    assertThat(landing.jsonLines(TOPIC))
        .extracting(record -> record.get("id").asText())
        .containsExactly("a", "before the first start", "a", "b");
    Mark committed = landing.cursors.load(CURSOR).orElseThrow();
    assertThat(((FileTailMark) committed).files())
        .singleElement()
        .extracting(FileTailMark.TailedFile::offset)
        .isEqualTo(Files.size(file));
  }

  @Test
  void theTailsMetricsReachTheServicesRegistry() throws IOException {
    Path file = append("{\"id\":\"a\"}\n{\"id\":\"b\"}\npartial");

    tick();

    assertThat(landing.metrics.counterValue(MetricNames.TAIL_LINES, "logs.app")).isEqualTo(2);
    assertThat(landing.metrics.counterValue(MetricNames.TAIL_BYTES, "logs.app")).isEqualTo(22);
    assertThat(landing.metrics.gaugeValue(MetricNames.TAIL_FILES_WATCHED, "logs.app")).isEqualTo(1);
    assertThat(landing.metrics.gaugeValue(MetricNames.TAIL_LAG_BYTES, "logs.app", file.toString()))
        .isEqualTo(7);
    assertThat(landing.metrics.registry().scrape())
        .extracting(snapshot -> snapshot.getMetadata().getPrometheusName())
        .contains(
            MetricNames.TAIL_LAG_BYTES,
            MetricNames.TAIL_FILES_WATCHED,
            "dfe_fetcher_tail_lines",
            "dfe_fetcher_tail_bytes");
  }

  @Test
  void renamedAndCopytruncatedFilesLandEveryLineOnceInOrderAcrossRestarts() throws IOException {
    Path log = append("{\"id\":\"0\"}\n{\"id\":\"1\"}\n");
    tick();
    append("{\"id\":\"2\"}\n");
    Files.move(log, directory.resolve("logs/app.log.1")); // rename: app.log.1 is not in paths
    append("{\"id\":\"3\"}\n");
    tick();
    append("{\"id\":\"4\"}\n");
    Files.copy(log, directory.resolve("logs/app.log.2")); // copytruncate
    Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
    append("{\"id\":\"5\"}\n");
    tick();
    tick();

    assertThat(landing.jsonLines(TOPIC))
        .extracting(record -> record.get("id").asText())
        .containsExactly("0", "1", "2", "3", "4", "5");
  }

  @Test
  void whatFailedToLandIsNotCommittedAndLandsOnTheNextTick() throws IOException {
    landing.batchLimits = new BatchLimits(1, 1 << 20, 60_000);
    append("{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n");
    landing.transport.failAfter(1);

    assertThat(tick()).isInstanceOf(TickOutcome.Failed.class);
    landing.transport.heal();
    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);

    assertThat(landing.jsonLines(TOPIC))
        .extracting(record -> record.get("id").asText())
        .containsSubsequence("a", "b", "c")
        .containsOnlyOnce("b", "c");
  }

  @Test
  void aLineThatIsNotJsonGoesToTheDlqNamingItsFileAndOffsetAndTheUnitGoesOn() throws IOException {
    Path file = append("{\"id\":\"a\"}\nnot json\n{\"id\":\"c\"}\n");

    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);

    assertThat(landing.jsonLines(TOPIC))
        .extracting(record -> record.get("id").asText())
        .containsExactly("a", "c");
    JsonNode entry = landing.jsonLines(Landing.DLQ_TOPIC).get(0);
    assertThat(entry.get("reason").asText())
        .startsWith("bad record at " + file + ":11: not valid JSON");
    assertThat(entry.get("destination").asText()).isEqualTo(TOPIC);
    assertThat(new String(Base64.getDecoder().decode(entry.get("payload").asText())))
        .isEqualTo("not json");
  }
}
