package dfe.fetcher.core.oversize;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OversizePolicyTest {

  private final OversizePolicy policy = new OversizePolicy(100, 10);

  @Test
  void aRecordOfExactlyMaxRecordBytesIsNotOversize() {
    assertThat(policy.isOversize(100)).isFalse();
  }

  @Test
  void aRecordOneByteOverMaxRecordBytesIsOversize() {
    assertThat(policy.isOversize(101)).isTrue();
  }

  @Test
  void theDlqCopyIsTheFirstMaxDlqBytes() {
    byte[] record = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    assertThat(new String(policy.dlqCopy(record), StandardCharsets.US_ASCII))
        .isEqualTo("0123456789");
    assertThat(policy.dlqCopy("short".getBytes(StandardCharsets.US_ASCII))).hasSize(5);
  }

  @Test
  void theReasonNamesTheLengthAndTheLimit() {
    assertThat(policy.reason(250)).isEqualTo("row exceeds max_record_bytes (250 > 100)");
  }

  @Test
  void theDefaultsAreTheDesignsDefaults() {
    assertThat(OversizePolicy.DEFAULT.maxRecordBytes()).isEqualTo(921_600);
    assertThat(OversizePolicy.DEFAULT.maxDlqBytes()).isEqualTo(65_536);
  }
}
