package dfe.fetcher.snapshots;

import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.snapshots.progress.TerminalProgress;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code snapshots verify}: the status of every snapshot in the given frames. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Reads frames (one JSON object per line) and reports every snapshot: complete, truncated,"
          + " open or conflict.",
      "Exit 0: every line a frame and every snapshot complete; 3: some snapshot not complete;"
          + " 2: some line not a frame (reported on stderr as FILE:LINE: reason)."
    })
final class VerifyCommand implements Callable<Integer> {

  enum Format {
    table,
    json
  }

  @ParentCommand private SnapshotsCommand snapshots;

  @Option(
      names = "--format",
      defaultValue = "table",
      description =
          "table (for people) or json (one object per snapshot). Default: ${DEFAULT-VALUE}.")
  private Format format;

  @Mixin private FrameSources sources;

  @Override
  public Integer call() {
    Terminal terminal = snapshots.terminal();
    Reassembler reassembler = Reassembler.verifyOnly();
    FrameInput input = new FrameInput(reassembler, terminal.in(), terminal.err());
    // A usage error comes before the progress line, not after an empty one.
    sources.check();
    try (TerminalProgress progress = input.showProgress("verify", terminal)) {
      sources.readInto(input);
    }
    List<SnapshotReport> reports = reassembler.reports();
    switch (format) {
      case json -> ReportJson.write(reports, terminal.out());
      case table -> ReportTable.write(reports, input.invalidLines(), terminal.out());
    }
    boolean allComplete =
        reports.stream().allMatch(report -> report.status() == SnapshotStatus.COMPLETE);
    return SnapshotsCommand.exitCode(allComplete, input.wasClean());
  }
}
