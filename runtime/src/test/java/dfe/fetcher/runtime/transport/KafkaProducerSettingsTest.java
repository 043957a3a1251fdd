package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class KafkaProducerSettingsTest {

  @Test
  void theProducerBatchesAWholeTickBatchByDefault() {
    Map<String, Object> settings = ProducerSettings.of("127.0.0.1:9092", Map.of(), 1_048_576);
    assertThat(settings.get(ProducerConfig.BATCH_SIZE_CONFIG)).isEqualTo(256 * 1024);
    assertThat(settings.get(ProducerConfig.LINGER_MS_CONFIG)).isEqualTo(5);
  }

  @Test
  void theOperatorsBatchSizeAndLingerWin() {
    Map<String, Object> settings =
        ProducerSettings.of(
            "127.0.0.1:9092", Map.of("batch.size", "16384", "linger.ms", "0"), 1_048_576);
    assertThat(settings.get(ProducerConfig.BATCH_SIZE_CONFIG)).isEqualTo("16384");
    assertThat(settings.get(ProducerConfig.LINGER_MS_CONFIG)).isEqualTo("0");
  }
}
