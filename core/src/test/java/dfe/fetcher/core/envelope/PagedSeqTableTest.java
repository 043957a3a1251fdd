package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PagedSeqTableTest {

  @Test
  void everySeqPutReadsBackAcrossTheFirstPagesGrowth() {
    PagedSeqTable table = new PagedSeqTable(true);
    for (int seq = 0; seq < 10_000; seq++) {
      table.putDigest(seq, seq * 31L);
      table.putRecord(seq, RawRecord.of("{\"n\":" + seq + "}"));
    }
    for (int seq = 0; seq < 10_000; seq++) {
      assertThat(table.digest(seq)).isEqualTo(seq * 31L);
      assertThat(table.record(seq)).hasToString("{\"n\":" + seq + "}");
    }
  }

  @Test
  void seqsPutOutOfOrderKeepTheValuesWrittenBeforeTheFirstPageGrew() {
    PagedSeqTable table = new PagedSeqTable(false);
    table.putDigest(3, 33);
    table.putDigest(4000, 4000);
    table.putDigest(1, 11);
    table.putDigest(-1, 77);
    assertThat(table.digest(3)).isEqualTo(33);
    assertThat(table.digest(4000)).isEqualTo(4000);
    assertThat(table.digest(1)).isEqualTo(11);
    assertThat(table.digest(-1)).isEqualTo(77);
  }
}
