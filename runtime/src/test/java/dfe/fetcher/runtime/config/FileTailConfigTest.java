package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.file.FileConnection;
import dfe.fetcher.file.tail.FileTailSpec;
import dfe.fetcher.file.tail.FingerprintSpec;
import dfe.fetcher.file.tail.FingerprintStrategy;
import dfe.fetcher.file.tail.MultilineSpec;
import dfe.fetcher.file.tail.ReadFrom;
import dfe.fetcher.file.tail.TailDecoder;
import dfe.fetcher.source.SourceUnit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code units[].tail}: every setting read, and every wrong one refused at its line and path. */
class FileTailConfigTest {

  @TempDir Path directory;
  private ConfigFixture fixture;

  @BeforeEach
  void setUp() {
    fixture = new ConfigFixture(directory);
  }

  @Test
  void everyTailSettingWrittenOutIsRead() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            sources:
              file:
                logs:
                  topic: logs
                  units:
                    - unit: app
                      row_key: /id
                      tail:
                        paths: [var/*.log]
                        exclude: ["*.gz", archive/*.log]
                        read_from: end
                        decoder: lines
                        max_line_bytes: 2048
                        multiline: {continuation: '^\\s', timeout_ms: 500}
                        fingerprint: {strategy: checksum, bytes: 128, header_bytes: 40}
                        rotate_wait_secs: 30
                        ignore_older_secs: 3600
                        glob_interval_secs: 5
                        max_open_files: 64
                        partial_line_timeout_secs: 5
            """);

    FileConnection connection = (FileConnection) config.connections().get(0).source();
    FileTailSpec tail = connection.fileUnits().get(0).tail().orElseThrow();
    assertThat(tail)
        .isEqualTo(
            new FileTailSpec(
                List.of(directory.resolve("var/*.log").toString()),
                List.of("*.gz", directory.resolve("archive/*.log").toString()),
                directory,
                ReadFrom.END,
                TailDecoder.LINES,
                2048,
                Optional.of(
                    new MultilineSpec(
                        MultilineSpec.Mode.CONTINUATION, "^\\s", Duration.ofMillis(500))),
                new FingerprintSpec(FingerprintStrategy.CHECKSUM, 128, 40),
                Duration.ofSeconds(30),
                Optional.of(Duration.ofSeconds(3600)),
                Duration.ofSeconds(5),
                64,
                Optional.of(Duration.ofSeconds(5))));
    SourceUnit unit = connection.units().get(0);
    assertThat(unit.shape()).isEqualTo(Shape.TAIL);
    assertThat(unit.markKind()).contains(Mark.Kind.FILE_TAIL);
  }

  @Test
  void aTailWithOnlyItsPathsTakesTheDefaults() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            sources:
              file:
                logs:
                  topic: logs
                  units: [{unit: app, tail: {paths: [var/*.log]}}]
            """);

    FileTailSpec tail =
        ((FileConnection) config.connections().get(0).source())
            .fileUnits()
            .get(0)
            .tail()
            .orElseThrow();
    assertThat(tail)
        .isEqualTo(new FileTailSpec(List.of(directory.resolve("var/*.log").toString()), directory));
  }

  @Test
  void wrongTailSettingsAreAllRefusedAtTheirLineAndPath() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                logs:
                  topic: logs
                  units:
                    - unit: app
                      tail:
                        paths: []
                        exclude: ["[a"]
                        read_from: middle
                        decoder: csv
                        max_line_bytes: 0
                        multiline: {start: "(", timeout_ms: 0}
                        fingerprint: {strategy: device_and_inode, header_bytes: 8, size: 3}
                        rotate_wait_secs: -1
                        partial_line_timeout_secs: 0
                        colour: blue
            """);

    assertThat(problems)
        .containsExactlyInAnyOrder(
            "config.yaml:8:20: sources.file.logs.units[0].tail.paths: needs at least one path",
            "config.yaml:9:23: sources.file.logs.units[0].tail.exclude[0]: is not a valid glob: a"
                + " set [... is not closed",
            "config.yaml:10:24: sources.file.logs.units[0].tail.read_from: unknown value 'middle';"
                + " one of beginning, end",
            "config.yaml:11:22: sources.file.logs.units[0].tail.decoder: unknown value 'csv'; one"
                + " of ndjson, lines",
            "config.yaml:12:29: sources.file.logs.units[0].tail.max_line_bytes: must be at least"
                + " 1, was 0",
            "config.yaml:13:32: sources.file.logs.units[0].tail.multiline.start: is not a valid"
                + " regular expression: Unclosed group at 1",
            "config.yaml:13:49: sources.file.logs.units[0].tail.multiline.timeout_ms: must be at"
                + " least 1, was 0",
            "config.yaml:14:72: sources.file.logs.units[0].tail.fingerprint.size: unknown key;"
                + " allowed keys: strategy, bytes, header_bytes",
            "config.yaml:14:69: sources.file.logs.units[0].tail.fingerprint.header_bytes: applies"
                + " to strategy checksum only (device_and_inode checks the first bytes from the"
                + " start)",
            "config.yaml:15:31: sources.file.logs.units[0].tail.rotate_wait_secs: must be at least"
                + " 0, was -1",
            "config.yaml:16:40: sources.file.logs.units[0].tail.partial_line_timeout_secs: must be"
                + " at least 1, was 0",
            "config.yaml:17:13: sources.file.logs.units[0].tail.colour: unknown key; allowed keys:"
                + " paths, exclude, read_from, decoder, max_line_bytes, multiline, fingerprint,"
                + " rotate_wait_secs, ignore_older_secs, glob_interval_secs, max_open_files,"
                + " partial_line_timeout_secs");
  }

  @Test
  void aUnitWithBothDumpAndTailIsRefused() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                logs:
                  topic: logs
                  units: [{unit: app, dump: {paths: [a]}, tail: {paths: [b]}}]
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:5:53: sources.file.logs.units[0].tail: a unit either dumps its files or"
                + " tails them: keep one of dump and tail");
  }

  @Test
  void aUnitWithNeitherDumpNorTailSaysBoth() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                logs:
                  topic: logs
                  units: [{unit: app}]
            """);

    assertThat(problems)
        .singleElement()
        .asString()
        .contains("sources.file.logs.units[0].dump: is required (or tail");
  }

  @Test
  void aMultilineNeedsExactlyOnePattern() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                logs:
                  topic: logs
                  units: [{unit: app, tail: {paths: [b], multiline: {start: a, continuation: b}}}]
            """);

    assertThat(problems)
        .singleElement()
        .asString()
        .contains("tail.multiline.continuation: give one of start and continuation, not both");
  }
}
