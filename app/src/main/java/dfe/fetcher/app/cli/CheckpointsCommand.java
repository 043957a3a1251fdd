package dfe.fetcher.app.cli;

import dfe.fetcher.core.checkpoint.CursorStore.CheckpointException;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.cursor.StoredCheckpoint;
import dfe.fetcher.snapshots.Terminal;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code dfe-fetcher checkpoints}: what each unit's checkpoint holds, and resetting one so the
 * unit's next tick starts over. Checkpoints are read where the configured output keeps them ({@code
 * cursor.directory}, or its {@code file-output/} for the file output) through the cursor store.
 */
@Command(
    name = "checkpoints",
    mixinStandardHelpOptions = true,
    description = "Lists the units' checkpoints, or resets one.",
    subcommands = {CheckpointsCommand.ListCommand.class, CheckpointsCommand.ResetCommand.class})
final class CheckpointsCommand implements Runnable {

  @ParentCommand private DfeFetcher root;
  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "say list or reset");
  }

  private static FileCursorStore cursorsOf(FetcherConfig config) {
    return new FileCursorStore(config.checkpointDirectory(), Clock.systemUTC());
  }

  /** {@code checkpoints list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = {
        "Prints each configured unit, the kind of its checkpoint, the checkpoint's file and where"
            + " the unit has got to; 'none' when it has none (its next tick starts over).",
        "Exit 2 when the configuration is refused."
      })
  static final class ListCommand implements Callable<Integer> {

    @ParentCommand private CheckpointsCommand parent;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "YAML file")
    private Path config;

    @Override
    public Integer call() {
      Terminal terminal = parent.root.terminal();
      FetcherConfig loaded = ConfigCheckCommand.loadOrReport(config, terminal);
      if (loaded == null) {
        return ConfigCheckCommand.INVALID_CONFIG;
      }
      FileCursorStore cursors = cursorsOf(loaded);
      TextTable table = new TextTable("UNIT", "KIND", "FILE", "CHECKPOINT");
      for (ConfiguredUnits.Unit unit : ConfiguredUnits.of(loaded).all()) {
        if (unit.unit().markKind().isEmpty()) {
          table.add(unit.store(), "-", "-", "none kept: read whole every tick");
          continue;
        }
        StoredCheckpoint held = cursors.inspect(unit.cursorKey());
        table.add(
            unit.store(),
            held.kind(),
            cursors.fileOf(unit.cursorKey()).toString(),
            held.description());
      }
      table.print(terminal.out());
      terminal.out().flush();
      return 0;
    }
  }

  /** {@code checkpoints reset}. */
  @Command(
      name = "reset",
      mixinStandardHelpOptions = true,
      description = {
        "Removes the unit's checkpoint, so its next tick starts over (a file unit dumps every"
            + " file again, a tail reads from the beginning), and says what it removed.",
        "Run it while the service is stopped: a tick running meanwhile commits again.",
        "Exit 2 for an unknown unit or a refused configuration; 1 when the file cannot be removed."
      })
  static final class ResetCommand implements Callable<Integer> {

    @ParentCommand private CheckpointsCommand parent;
    @Spec private CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "YAML file")
    private Path config;

    @Parameters(paramLabel = "CONNECTION.UNIT", description = "the unit whose checkpoint to remove")
    private String store;

    @Override
    public Integer call() {
      Terminal terminal = parent.root.terminal();
      FetcherConfig loaded = ConfigCheckCommand.loadOrReport(config, terminal);
      if (loaded == null) {
        return ConfigCheckCommand.INVALID_CONFIG;
      }
      ConfiguredUnits.Unit unit = ConfiguredUnits.of(loaded).require(spec, store, false);
      if (unit.unit().markKind().isEmpty()) {
        terminal
            .out()
            .println(
                "unit "
                    + store
                    + " keeps no checkpoint (it is read whole every tick): nothing to remove");
        return 0;
      }
      FileCursorStore cursors = cursorsOf(loaded);
      Path file = cursors.fileOf(unit.cursorKey());
      StoredCheckpoint removed;
      try {
        removed = cursors.remove(unit.cursorKey());
      } catch (CheckpointException e) {
        terminal.err().println(e.getMessage());
        return 1;
      }
      if (removed instanceof StoredCheckpoint.None) {
        terminal
            .out()
            .println("unit " + store + " has no checkpoint (" + file + "): nothing removed");
      } else {
        terminal
            .out()
            .println(
                "removed "
                    + file
                    + " ("
                    + removed.kind()
                    + ": "
                    + removed.description()
                    + "): the next tick of "
                    + store
                    + " starts over");
      }
      terminal.out().flush();
      return 0;
    }
  }
}
