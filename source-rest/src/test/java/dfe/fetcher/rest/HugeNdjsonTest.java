package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A streamed NDJSON response far larger than the heap decodes in a child JVM with {@code -Xmx128m}.
 * The size is {@code dfe.rest.hugeBytes} (default 500 MB).
 */
class HugeNdjsonTest {

  @Test
  void aResponseFourTimesTheHeapStreamsThroughASmallFixedHeap() throws Exception {
    long bytes = Long.getLong("dfe.rest.hugeBytes", 500L * 1000 * 1000);
    String output = SmallHeapRead.inChild(HugeNdjsonMain.class, bytes, "huge-ndjson.log");

    assertThat(output).contains("ended=true").contains("max_heap_mb=12");
    String rows = output.replaceAll("(?s).*rows=(\\d+) .*", "$1");
    String served = output.replaceAll("(?s).*served_rows=(\\d+) .*", "$1");
    assertThat(Long.parseLong(rows)).isPositive().isEqualTo(Long.parseLong(served));
    String landed = output.replaceAll("(?s).*bytes=(\\d+) .*", "$1");
    assertThat(Long.parseLong(landed)).isGreaterThanOrEqualTo(bytes);
  }
}
