package dfe.fetcher.snapshots;

import dfe.fetcher.core.change.DuplicateKeyException;
import dfe.fetcher.core.change.RowIdentity;
import dfe.fetcher.core.change.SortedChanges;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.snapshots.diff.ComparedSnapshots;
import dfe.fetcher.snapshots.progress.TerminalProgress;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code snapshots diff}: the keys added, removed and changed between two complete snapshots. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the changes from snapshot --from to snapshot --to, one JSON object per line in key"
          + " order: {\"op\":\"add|remove|change\",\"key\":...,\"before\":...,\"after\":...}.",
      "Memory is bounded: frames of other snapshots are dropped as read, rows are sorted by key in"
          + " runs spilled to --spill-directory and merged, and the changes are written there and"
          + " printed once the diff succeeded. Oversize stubs are not rows and take no part; a"
          + " summary line goes to stderr.",
      "Exit 0: both snapshots complete and compared; 3: either is absent or not complete; 2: a row"
          + " without the key or a key repeated, or input that was not a frame. Nothing is printed"
          + " on stdout unless the diff was compared whole."
    })
final class DiffCommand implements Callable<Integer> {

  @ParentCommand private SnapshotsCommand snapshots;

  @Spec private CommandSpec command;

  @Mixin private KeyOption key;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "ID",
      description = "The earlier snapshot.")
  private String fromId;

  @Option(names = "--to", required = true, paramLabel = "ID", description = "The later snapshot.")
  private String toId;

  @Option(
      names = "--spill-directory",
      paramLabel = "DIR",
      description = "Where sorted runs are written (removed afterwards). Default: java.io.tmpdir.")
  private Path spillDirectory;

  @Option(
      names = "--run-megabytes",
      defaultValue = "32",
      paramLabel = "MB",
      description =
          "Rows of each snapshot held before a run is spilled. Default: ${DEFAULT-VALUE}.")
  private int runMegabytes;

  @Mixin private FrameSources sources;

  @Override
  public Integer call() throws IOException {
    Terminal terminal = snapshots.terminal();
    RowIdentity identity;
    try {
      identity = RowIdentity.of(key.pointers());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), "--key: " + e.getMessage());
    }
    Path directory =
        Files.createTempDirectory(
            spillDirectory != null ? spillDirectory : Path.of(System.getProperty("java.io.tmpdir")),
            "dfe-fetcher-diff-");
    try {
      Reassembler reassembler = Reassembler.verifyOnly();
      ComparedSnapshots compared =
          new ComparedSnapshots(
              fromId, toId, identity, reassembler, directory, (long) runMegabytes << 20);
      FrameInput input = new FrameInput(compared, terminal.in(), terminal.err());
      // A usage error comes before the progress line, not after an empty one.
      sources.check();
      try (TerminalProgress progress = input.showProgress("diff", terminal)) {
        sources.readInto(input);
      }
      boolean complete =
          complete(reassembler, fromId, terminal) & complete(reassembler, toId, terminal);
      if (!complete) {
        return SnapshotsCommand.NOT_COMPLETE;
      }
      if (compared.keyless().isPresent()) {
        terminal.err().println(compared.keyless().get());
        return SnapshotsCommand.INVALID_INPUT;
      }
      // The changes go to a file first and are printed only once the whole diff succeeded: a key
      // repeated late in either snapshot must not leave part of a diff on stdout.
      Path changes = directory.resolve("changes.ndjson");
      SortedChanges.Counts counts;
      try (OutputStream pending =
          new BufferedOutputStream(Files.newOutputStream(changes), 1 << 16)) {
        counts =
            SortedChanges.between(
                compared.from().sorted(),
                compared.to().sorted(),
                event -> write(pending, event.toJson()));
      } catch (DuplicateKeyException e) {
        terminal.err().println("snapshots diff: " + e.getMessage());
        return SnapshotsCommand.INVALID_INPUT;
      }
      PrintStream out = terminal.out();
      Files.copy(changes, out);
      out.flush();
      terminal
          .err()
          .println(
              "diff from="
                  + fromId
                  + " to="
                  + toId
                  + " added="
                  + counts.added()
                  + " removed="
                  + counts.removed()
                  + " changed="
                  + counts.changed()
                  + " unchanged="
                  + counts.unchanged()
                  + " stubs="
                  + (reassembler.report(fromId).orElseThrow().stubs()
                      + (toId.equals(fromId) ? 0 : reassembler.report(toId).orElseThrow().stubs()))
                  + " runs="
                  + compared.runs());
      return input.wasClean() ? SnapshotsCommand.ALL_COMPLETE : SnapshotsCommand.INVALID_INPUT;
    } finally {
      deleteRecursively(directory);
    }
  }

  private static void write(OutputStream pending, byte[] json) {
    try {
      pending.write(json);
      pending.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException("writing the changes to the spill directory failed", e);
    }
  }

  private static boolean complete(Reassembler reassembler, String id, Terminal terminal) {
    Optional<SnapshotReport> report = reassembler.report(id);
    if (report.isEmpty()) {
      terminal.err().println("snapshot " + id + ": no frame of it was read");
      return false;
    }
    if (report.get().status() != SnapshotStatus.COMPLETE) {
      terminal
          .err()
          .println(
              "snapshot "
                  + id
                  + " of "
                  + report.get().store()
                  + " is "
                  + report.get().status().wireName()
                  + ", not complete");
      return false;
    }
    return true;
  }

  private static void deleteRecursively(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("removing the spill directory " + directory + " failed", e);
    }
  }
}
