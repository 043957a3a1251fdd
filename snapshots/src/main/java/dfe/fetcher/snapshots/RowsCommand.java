package dfe.fetcher.snapshots;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code snapshots rows}: the records of one complete snapshot, in seq order. */
@Command(
    name = "rows",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the records of one snapshot, one JSON value per line in seq order (oversize stubs"
          + " excluded), as they were sent.",
      "Exit 3 (and nothing printed) when the snapshot is absent or not complete; otherwise 2 when"
          + " some line was not a frame, else 0."
    })
final class RowsCommand implements Callable<Integer> {

  @ParentCommand private SnapshotsCommand snapshots;

  @Option(
      names = "--snapshot",
      required = true,
      paramLabel = "ID",
      description =
          "snapshot_id, whole or any unique prefix or suffix of it (verify's table shows the"
              + " last 12 characters, with or without its leading '…')")
  private String snapshotId;

  @Mixin private FrameSources sources;

  @Override
  public Integer call() {
    Terminal terminal = snapshots.terminal();
    String wanted = snapshotId.replaceFirst("^(…|\\.\\.\\.)", "");
    Predicate<String> matches = id -> id.startsWith(wanted) || id.endsWith(wanted);
    Reassembler reassembler = Reassembler.retainingRecordsOf(matches);
    FrameInput input = new FrameInput(reassembler, terminal.in(), terminal.err());
    sources.readInto(input);

    List<String> candidates =
        reassembler.reports().stream()
            .map(SnapshotReport::snapshotId)
            .filter(matches)
            .distinct()
            .toList();
    if (candidates.size() > 1) {
      terminal
          .err()
          .println(
              "snapshot "
                  + snapshotId
                  + ": matches "
                  + candidates.size()
                  + " snapshots ("
                  + String.join(", ", candidates)
                  + "); give more of its id");
      return SnapshotsCommand.exitCode(false, input.wasClean());
    }
    Optional<SnapshotReport> report =
        candidates.isEmpty() ? Optional.empty() : reassembler.report(candidates.get(0));
    if (report.isEmpty()) {
      terminal.err().println("snapshot " + snapshotId + ": no frame of it was read");
      // A source that could not be read may hold it: that is bad input, not an absent snapshot.
      return input.hadUnreadableSource()
          ? SnapshotsCommand.INVALID_INPUT
          : SnapshotsCommand.exitCode(false, input.wasClean());
    }
    String id = report.get().snapshotId();
    if (report.get().status() != SnapshotStatus.COMPLETE) {
      terminal.err().println(notComplete(report.get()));
      return SnapshotsCommand.exitCode(false, input.wasClean());
    }
    PrintStream out = terminal.out();
    for (RawRecord record : reassembler.rows(id)) {
      out.write(record.bytes(), 0, record.length());
      out.write('\n');
    }
    out.flush();
    return SnapshotsCommand.exitCode(true, input.wasClean());
  }

  private static String notComplete(SnapshotReport report) {
    String detail =
        switch (report.status()) {
          case TRUNCATED ->
              "missing seqs "
                  + report.missing().stream()
                      .limit(10)
                      .map(String::valueOf)
                      .collect(Collectors.joining(", "))
                  + (report.missing().size() > 10 ? ", ..." : "");
          case OPEN -> "no end frame was read";
          case CONFLICT -> String.join("; ", report.conflicts());
          case COMPLETE -> "";
        };
    return "snapshot "
        + report.snapshotId()
        + " of "
        + report.store()
        + " is "
        + report.status().wireName()
        + ", not complete: "
        + detail;
  }
}
