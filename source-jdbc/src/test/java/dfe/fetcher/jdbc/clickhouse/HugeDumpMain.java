package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.source.OpenConnection;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Run in a child JVM with a small heap by {@link HugeDumpTest}: dumps {@code args[0]} generated
 * rows (the row shape of the PostgreSQL memory benchmark: an integer key, text, a decimal, a time,
 * a flag, an array, a note) from the ClickHouse server through a dump store, keeping nothing but
 * counters and the landed bytes' count, and prints {@code rows=N bytes=M ended=true seconds=S
 * peak_heap_mb=H peak_rss_mb=R max_heap_mb=X}.
 */
public final class HugeDumpMain {

  private HugeDumpMain() {}

  public static void main(String[] args) throws Exception {
    long rows = Long.parseLong(args[0]);
    ClickHouseFixture.ensureServer();
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "crm",
            "engine: clickhouse\nurl: "
                + ClickHouseFixture.URL
                + "\nstores:\n  - {unit: accounts, shape: dump, query: \"SELECT number AS id,"
                + " concat('account-', toString(number)) AS name, toDecimal64(number % 100000, 2)"
                + " / 100 AS balance, toDateTime(1767225600 + number, 'UTC') AS opened,"
                + " number % 10 != 0 AS active, ['a', 'b'] AS tags, 'generated row for the memory"
                + " benchmark' AS note FROM numbers("
                + rows
                + ")\"}\n");
    long[] counted = new long[2];
    boolean[] ended = new boolean[1];
    EventSink sink =
        new EventSink(false) {
          @Override
          public void row(Row row) throws InterruptedException {
            counted[0]++;
            counted[1] += row.record().length();
          }

          @Override
          public void endPart(Optional<dfe.fetcher.core.row.Mark> position) {
            ended[0] = true;
          }
        };
    long start = System.nanoTime();
    try (OpenConnection open = ClickHouseFixture.open(connection)) {
      open.source("accounts").read(Optional.empty(), sink, new Cancellation());
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long peakHeap = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peakHeap += pool.getPeakUsage().getUsed();
      }
    }
    System.out.printf(
        "rows=%d bytes=%d ended=%b seconds=%.1f rows_per_s=%.0f peak_heap_mb=%d peak_rss_mb=%d"
            + " max_heap_mb=%d%n",
        counted[0],
        counted[1],
        ended[0],
        seconds,
        counted[0] / seconds,
        peakHeap / (1024 * 1024),
        peakRssKb() / 1024,
        Runtime.getRuntime().maxMemory() / (1024 * 1024));
  }

  /** VmHWM from /proc/self/status: the process's peak resident set, in KiB (0 elsewhere). */
  private static long peakRssKb() throws java.io.IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return 0;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return 0;
  }
}
