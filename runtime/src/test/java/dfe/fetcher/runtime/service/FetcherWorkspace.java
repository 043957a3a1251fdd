package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.source.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A test's directory laid out as an operator would: {@code config.yaml}, data files beside it, and
 * the fetcher's {@code landing/} and {@code state/} directories. Reads back what landed the way a
 * consumer would, through the {@link Reassembler}.
 *
 * <p>Data files get strictly increasing change times in the order they are written, and appear
 * whole (written beside the glob, then renamed), so a running scheduler never lists a half-written
 * file and the order files are dumped in is the order the test wrote them.
 */
public final class FetcherWorkspace {

  /** The header every test config starts with: file output and state here, any free port. */
  public static final String HEADER =
      """
      instance_id: test
      output:
        file: {directory: landing}
        batch: {linger_ms: 0}
      cursor: {directory: state}
      metrics: {address: "127.0.0.1:0"}
      """;

  /**
   * Two file connections ticking hourly: {@code inventory.hosts} reads a good file, {@code
   * broken.feed} a bad one ({@link #oneGoodOneBroken} writes both), so one unit succeeds and one
   * fails.
   */
  public static final String ONE_GOOD_ONE_BROKEN =
      HEADER
          + """
          sources:
            file:
              inventory:
                topic: inventory
                interval_secs: 3600
                units:
                  - unit: hosts
                    dump: {paths: [data/hosts/*.ndjson]}
              broken:
                topic: broken
                interval_secs: 3600
                units:
                  - unit: feed
                    dump: {paths: [data/broken/*.ndjson]}
          """;

  private final Path directory;
  private Instant lastChange = Instant.EPOCH;

  public FetcherWorkspace(Path directory) {
    this.directory = directory;
  }

  public Path directory() {
    return directory;
  }

  public Path landing() {
    return directory.resolve("landing");
  }

  /** Where the file output's checkpoints are: the header's output is the file output. */
  public Path state() {
    return directory.resolve("state").resolve(FetcherConfig.FILE_OUTPUT_CHECKPOINTS);
  }

  /** Writes {@link #ONE_GOOD_ONE_BROKEN}'s configuration and the two files it reads; its path. */
  public Path oneGoodOneBroken() {
    write("data/hosts/a.ndjson", ndjson("{\"id\":1}"));
    write("data/broken/bad.ndjson", ndjson("{\"id\":"));
    return config(ONE_GOOD_ONE_BROKEN);
  }

  /** Writes {@code config.yaml}. */
  public Path config(String yaml) {
    return writeNow("config.yaml", yaml);
  }

  public FetcherConfig load(Path config) {
    return load(config, Map.of());
  }

  /** {@code config} loaded with {@code environment} as the process's environment. */
  public FetcherConfig load(Path config, Map<String, String> environment) {
    try {
      return FetcherService.loadConfig(config, environment);
    } catch (ConfigException e) {
      throw new AssertionError("the test configuration was refused: " + e.problems(), e);
    }
  }

  /**
   * Writes a data file at {@code relative}, changed later than every file written before it, and
   * makes it appear at once.
   */
  public synchronized Path write(String relative, String content) {
    Path file = directory.resolve(relative);
    Path hidden = directory.resolve(relative + ".writing");
    Instant changedAt = Instant.now();
    if (!changedAt.isAfter(lastChange)) {
      changedAt = lastChange.plusMillis(1);
    }
    lastChange = changedAt;
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(hidden, content, StandardCharsets.UTF_8);
      Files.setLastModifiedTime(hidden, FileTime.from(changedAt));
      Files.move(hidden, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** NDJSON text, one record a line. */
  public static String ndjson(String... records) {
    return String.join("\n", records) + "\n";
  }

  /** The lines landed on {@code topic}; none when nothing landed. */
  public List<String> lines(String topic) {
    Path file = landing().resolve(topic + ".ndjson");
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every frame landed on {@code topic}, fed to a Reassembler that keeps records. */
  public Reassembler reassembled(String topic) {
    Reassembler reassembler = Reassembler.retainingRecords();
    for (String line : lines(topic)) {
      try {
        reassembler.accept(line.getBytes(StandardCharsets.UTF_8));
      } catch (InvalidFrameException e) {
        throw new AssertionError(topic + ": landed a line that is not a frame: " + line, e);
      }
    }
    return reassembler;
  }

  public List<SnapshotReport> reports(String topic) {
    return reassembled(topic).reports();
  }

  /** How many snapshots of {@code topic} are complete now. */
  public long completeSnapshots(String topic) {
    return reports(topic).stream().filter(r -> r.status() == SnapshotStatus.COMPLETE).count();
  }

  /**
   * The rows of each snapshot landed on {@code topic}, in snapshot order, as the provider's JSON
   * text; fails unless every snapshot is complete.
   */
  public List<List<String>> completeSnapshotRows(String topic) {
    Reassembler reassembler = reassembled(topic);
    List<List<String>> snapshots = new ArrayList<>();
    for (SnapshotReport report : reassembler.reports()) {
      assertThat(report.status()).as("%s: %s", topic, report).isEqualTo(SnapshotStatus.COMPLETE);
      snapshots.add(
          reassembler.rows(report.snapshotId()).stream().map(RawRecord::toString).toList());
    }
    return snapshots;
  }

  private Path writeNow(String relative, String content) {
    Path file = directory.resolve(relative);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
