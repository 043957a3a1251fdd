package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Kafka property the producer refuses is reported at startup, named, without its value. */
class KafkaOutputSettingsTest {

  @TempDir Path directory;

  @Test
  void aPropertyTheProducerRefusesFailsCreationNamingItButNotItsValue() {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config =
        workspace.config(
            """
            output:
              type: kafka
              kafka:
                bootstrap_servers: "127.0.0.1:1"
                properties:
                  linger.ms: s3cr3t-not-a-number
            metrics: {address: "127.0.0.1:0"}
            """);

    assertThatThrownBy(() -> FetcherService.create(workspace.load(config), Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("output.kafka.properties.linger.ms: not accepted")
        .hasMessageNotContaining("s3cr3t");
  }
}
