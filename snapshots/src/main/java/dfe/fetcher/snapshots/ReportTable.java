package dfe.fetcher.snapshots;

import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The table form of {@code snapshots verify}, for people: one line per snapshot (store, the last 12
 * characters of its id, status, counts, what is missing or conflicting) and a summary line.
 */
final class ReportTable {

  private static final int SHORT_ID = 12;
  private static final int MISSING_SHOWN = 5;
  private static final String[] HEADER = {
    "STORE", "SNAPSHOT", "STATUS", "ROW_COUNT", "ROWS", "STUBS", "BEGUN", "DETAIL"
  };

  private ReportTable() {}

  static void write(List<SnapshotReport> reports, long invalidLines, PrintStream out) {
    List<String[]> lines = new ArrayList<>();
    lines.add(HEADER);
    Map<SnapshotStatus, Integer> counts = new EnumMap<>(SnapshotStatus.class);
    for (SnapshotReport report : reports) {
      counts.merge(report.status(), 1, Integer::sum);
      lines.add(
          new String[] {
            report.store(),
            shortId(report.snapshotId()),
            report.status().wireName(),
            report.rowCount().isPresent() ? String.valueOf(report.rowCount().getAsLong()) : "-",
            String.valueOf(report.rows()),
            String.valueOf(report.stubs()),
            report.begun() ? "yes" : "no",
            detail(report)
          });
    }
    if (!reports.isEmpty()) {
      int[] widths = new int[HEADER.length];
      for (String[] line : lines) {
        for (int i = 0; i < line.length; i++) {
          widths[i] = Math.max(widths[i], line[i].length());
        }
      }
      for (String[] line : lines) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < line.length; i++) {
          text.append(i == line.length - 1 ? line[i] : pad(line[i], widths[i] + 2));
        }
        out.println(text.toString().stripTrailing());
      }
    }
    out.println(summary(reports.size(), counts, invalidLines));
    out.flush();
  }

  private static String summary(int total, Map<SnapshotStatus, Integer> counts, long invalid) {
    String byStatus =
        Arrays.stream(SnapshotStatus.values())
            .map(status -> counts.getOrDefault(status, 0) + " " + status.wireName())
            .collect(Collectors.joining(", "));
    return total
        + (total == 1 ? " snapshot: " : " snapshots: ")
        + byStatus
        + "; "
        + invalid
        + (invalid == 1 ? " line" : " lines")
        + " not a frame";
  }

  private static String detail(SnapshotReport report) {
    return switch (report.status()) {
      case TRUNCATED -> {
        String shown =
            report.missing().stream()
                .limit(MISSING_SHOWN)
                .map(String::valueOf)
                .collect(Collectors.joining(","));
        yield "missing " + shown + (report.missing().size() > MISSING_SHOWN ? ",..." : "");
      }
      case OPEN -> "no end";
      case CONFLICT -> report.conflicts().isEmpty() ? "" : report.conflicts().get(0);
      case COMPLETE -> "";
    };
  }

  private static String shortId(String snapshotId) {
    return snapshotId.length() <= SHORT_ID
        ? snapshotId
        : "…" + snapshotId.substring(snapshotId.length() - SHORT_ID);
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(Math.max(0, width - text.length()));
  }
}
