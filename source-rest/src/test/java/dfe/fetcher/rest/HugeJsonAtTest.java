package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A {@code json_at} page ({@code {"data":[...],"next":...}}) far larger than the heap streams in a
 * child JVM with {@code -Xmx128m}, and its cursor, after the rows, still leads to the next page.
 * The size is {@code dfe.rest.hugeBytes} (default 500 MB).
 */
class HugeJsonAtTest {

  @Test
  void aJsonAtPageFourTimesTheHeapStreamsAndItsCursorAfterTheRowsIsFollowed() throws Exception {
    long bytes = Long.getLong("dfe.rest.hugeBytes", 500L * 1000 * 1000);
    String output = SmallHeapRead.inChild(HugeJsonAtMain.class, bytes, "huge-json-at.log");

    assertThat(output)
        .contains("ended=true")
        .contains("requests=2")
        .contains("max_heap_mb=12")
        .doesNotContain("aborted");
    String rows = output.replaceAll("(?s).*(?<!served_)rows=(\\d+) .*", "$1");
    String served = output.replaceAll("(?s).*served_rows=(\\d+) .*", "$1");
    assertThat(Long.parseLong(rows)).isGreaterThan(1).isEqualTo(Long.parseLong(served));
    String landed = output.replaceAll("(?s).*bytes=(\\d+) .*", "$1");
    assertThat(Long.parseLong(landed)).isGreaterThanOrEqualTo(bytes);
  }
}
