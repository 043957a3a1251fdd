package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RotatedFileTest {

  private static final Instant AT = Instant.parse("2026-12-02T10:41:16.999Z");

  @Test
  void theNameIsTheTopicAPlusTheUtcSecondAndASixDigitSeq() {
    assertThat(RotatedFile.next("inventory-hosts_land", AT, Optional.empty()).fileName())
        .isEqualTo("inventory-hosts_land+20261202T104116Z-000001.ndjson");
  }

  @Test
  void aNameParsesBackOnlyForItsOwnTopic() {
    String name = "a.b_land+20261202T104116Z-000042.ndjson";
    assertThat(RotatedFile.parse("a.b_land", name))
        .contains(new RotatedFile("a.b_land", Instant.parse("2026-12-02T10:41:16Z"), 42));
    assertThat(RotatedFile.parse("a", name)).isEmpty();
    assertThat(RotatedFile.parse("a.b_land", "a.b_land.ndjson")).isEmpty();
    assertThat(RotatedFile.parse("a.b_land", "a.b_land+20261399T104116Z-000001.ndjson")).isEmpty();
    assertThat(RotatedFile.parse("a.b_land", "a.b_land+20261202T104116Z-1.ndjson")).isEmpty();
  }

  @Test
  void theSeqRunsOnWithinASecondAndPastItsLastValueTheNextSecondIsTaken() {
    RotatedFile first = RotatedFile.next("t", AT, Optional.empty());
    assertThat(RotatedFile.next("t", AT, Optional.of(first)).fileName())
        .isEqualTo("t+20261202T104116Z-000002.ndjson");
    RotatedFile last = new RotatedFile("t", AT, 999_999);
    assertThat(RotatedFile.next("t", AT, Optional.of(last)).fileName())
        .isEqualTo("t+20261202T104117Z-000001.ndjson");
  }
}
