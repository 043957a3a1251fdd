package dfe.fetcher.app.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.testkit.LocalKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short slice of the fault campaign ({@code benchmarks/scripts/fault-campaign.sh},
 * docs/reliability.md): two kill -9s per family at a fixed seed, over the five families, on a
 * broker of this JVM, with the shipped launcher and jar; the summary line must say nothing was
 * lost. A second run breaks a source and a tailed file's expectations on purpose and must be
 * reported as loss, so a checker that passes everything cannot hide here.
 */
class FaultCampaignIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final long SEED = 20261202;

  @TempDir Path directory;

  /** A broker of its own per run: the families' topics have fixed names. */
  private LocalKafka kafka;

  @BeforeEach
  void startBroker() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterEach
  void stopBroker() throws Exception {
    kafka.close();
  }

  record Campaign(int exitCode, String summary, String errors) {}

  @Test
  void twoKillsPerFamilyLoseNothing() throws Exception {
    Campaign campaign =
        campaign(Map.of("KILLS", "2", "FAMILIES", "file-dump pg mariadb rest file-tail"));

    assertThat(campaign.summary())
        .as(campaign.errors())
        .matches(
            "fault-campaign: seed="
                + SEED
                + " kills=file-dump:2,pg:2,mariadb:2,rest:2,file-tail:2 cut_dumps=\\d+ lost=0");
    assertThat(campaign.exitCode()).as(campaign.errors()).isZero();
  }

  @Test
  void aChangedSourceALineNeverWrittenACheckpointAheadAndAPrintedSecretAreReportedAsLoss()
      throws Exception {
    Campaign campaign =
        campaign(Map.of("KILLS", "1", "FAMILIES", "file-dump file-tail", "SELF_TEST", "1"));

    assertThat(campaign.exitCode()).as(campaign.errors()).isEqualTo(1);
    assertThat(campaign.summary())
        .as(campaign.errors())
        .startsWith("fault-campaign: seed=" + SEED + " kills=file-dump:1,file-tail:1 cut_dumps=")
        .containsPattern(" lost=[1-9]\\d* failures=\"")
        .containsPattern("file-dump: complete snapshot \\S+ \\(10000 rows\\) equals no source")
        .contains("file-tail: 1 of ")
        .contains(" never landed, first [line -1 never written]")
        // The tail's first checkpoint moved ahead of the topic, and each secret planted in a log.
        .containsPattern("file-tail: round-\\S+: \\S+ is shorter than its checkpointed offset")
        .contains("file-dump: a secret (kafk...) is printed in: ")
        .contains("file-tail: a secret (kafk...) is printed in: ");
  }

  /**
   * Runs the campaign script from a copy of the checkout holding the launcher, a link to this
   * build's jar (so the launcher builds nothing) and the campaign's files, and returns its summary
   * line (its last line on stdout).
   */
  private Campaign campaign(Map<String, String> settings) throws Exception {
    Path checkout = checkout(directory.resolve("checkout"));
    Path stdout = directory.resolve("campaign.out");
    Path stderr = directory.resolve("campaign.err");
    ProcessBuilder builder =
        new ProcessBuilder("bash", "benchmarks/scripts/fault-campaign.sh")
            .directory(checkout.toFile())
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    Map<String, String> environment = builder.environment();
    environment.keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    environment.put(
        "PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + environment.get("PATH"));
    environment.put("SEED", String.valueOf(SEED));
    environment.put("BOOTSTRAP", kafka.bootstrapServers());
    environment.put("CAMPAIGN_DIR", directory.resolve("work").toString());
    environment.putAll(settings);
    Process process = builder.start();
    boolean ended = process.waitFor(8, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    List<String> lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
    String errors = "stderr:\n" + Files.readString(stderr, StandardCharsets.UTF_8);
    assertThat(ended).as("the campaign ended within 8 minutes; %s", errors).isTrue();
    String summary = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    System.out.println(summary); // the figures, in the build's log
    return new Campaign(process.exitValue(), summary, errors);
  }

  private static Path checkout(Path checkout) throws IOException {
    for (String file :
        List.of(
            "dfe-fetcher",
            "benchmarks/scripts/lib.sh",
            "benchmarks/scripts/fault-campaign.sh",
            "benchmarks/scripts/campaign/rest-faults.sh",
            "benchmarks/scripts/campaign/live-service.sh",
            "benchmarks/scripts/campaign/broker-faults.sh",
            "benchmarks/scripts/campaign/disk-faults.sh",
            "benchmarks/scripts/campaign/db-faults.sh",
            "benchmarks/scripts/campaign/connect-faults.sh",
            "benchmarks/scripts/campaign/bad-input.sh",
            "benchmarks/tools/FaultCampaignCheck.java",
            "benchmarks/tools/CampaignRestServer.java")) {
      Path copy = checkout.resolve(file);
      Files.createDirectories(copy.getParent());
      Files.copy(ROOT.resolve(file), copy, StandardCopyOption.COPY_ATTRIBUTES);
    }
    Path jar = Path.of(System.getProperty("dfe.fetcher.jar", "target/dfe-fetcher.jar"));
    assertThat(jar).as("the runnable jar `mvn package` builds").isRegularFile();
    Path target = Files.createDirectories(checkout.resolve("app/target"));
    Files.createSymbolicLink(target.resolve("dfe-fetcher.jar"), jar.toAbsolutePath());
    return checkout;
  }
}
