package dfe.fetcher.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.filter.FilterVerdict;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.ConnectionUnits;
import dfe.fetcher.runtime.tick.FilterErrors;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.snapshots.Terminal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

/** {@code dfe-fetcher filter}: tries a connection's {@code filter:} on records, without landing. */
@Command(
    name = "filter",
    mixinStandardHelpOptions = true,
    description = "Tries a connection's filter on sample records.",
    subcommands = {FilterCommand.TestCommand.class})
final class FilterCommand implements Runnable {

  @ParentCommand private DfeFetcher root;
  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "say test");
  }

  /** {@code filter test}. */
  @Command(
      name = "test",
      mixinStandardHelpOptions = true,
      description = {
        "Reads records, one JSON value a line (- reads standard input; blank lines are skipped),"
            + " and judges each with the unit's connection filter as a tick would: a dump's filter"
            + " sees the row frame (record.<field>, seq, store), a tail's the record. Prints"
            + " FILE:LINE: kept, dropped or not judged (with CEL's reason and what filter_errors"
            + " does with it), then a summary. A record over oversize.max_record_bytes is not"
            + " judged: a tick lands it as a stub (dump) or sends it to the DLQ (tail).",
        "Exit 0 when every line was a JSON value; 2 when one was not, the file cannot be read, or"
            + " on a usage error."
      })
  static final class TestCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParentCommand private FilterCommand parent;
    @Spec private CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "YAML file")
    private Path config;

    @Option(
        names = "--unit",
        required = true,
        paramLabel = "CONNECTION.UNIT",
        description = "the unit whose connection's filter to apply")
    private String store;

    @Parameters(paramLabel = "FILE", description = "NDJSON records, or - for standard input")
    private String input;

    private long kept;
    private long dropped;
    private long unjudged;
    private long oversize;
    private long notRecords;

    @Override
    public Integer call() {
      Terminal terminal = parent.root.terminal();
      FetcherConfig loaded = ConfigCheckCommand.loadOrReport(config, terminal);
      if (loaded == null) {
        return ConfigCheckCommand.INVALID_CONFIG;
      }
      ConfiguredUnits.Unit unit = ConfiguredUnits.of(loaded).require(spec, store, false);
      RowFilterStage filter = ConnectionUnits.filterOf(unit.connection());
      Shape shape = unit.unit().shape();
      // A dump's rows are numbered as a tick numbers them: a dropped row gives its seq back.
      SnapshotWriter snapshot =
          SnapshotWriter.open(store, Clock.systemUTC(), new UuidV7Generator());
      snapshot.begin();
      try (BufferedReader reader = open(terminal)) {
        String line;
        long number = 0;
        while ((line = reader.readLine()) != null) {
          number++;
          if (line.isBlank()) {
            continue;
          }
          String place = input + ":" + number + ": ";
          byte[] json = line.getBytes(StandardCharsets.UTF_8);
          try {
            JSON.readTree(json);
          } catch (JsonProcessingException e) {
            notRecords++;
            terminal.err().println(place + "not a JSON value: " + e.getOriginalMessage());
            continue;
          }
          terminal.out().println(place + judge(filter, shape, snapshot, json, loaded.oversize()));
        }
      } catch (IOException e) {
        terminal.err().println(input + ": cannot read: " + e.getMessage());
        return ConfigCheckCommand.INVALID_CONFIG;
      }
      terminal.out().println(summary(unit, filter.onError()));
      terminal.out().flush();
      terminal.err().flush();
      return notRecords == 0 ? 0 : ConfigCheckCommand.INVALID_CONFIG;
    }

    private BufferedReader open(Terminal terminal) throws IOException {
      return input.equals("-")
          ? new BufferedReader(new InputStreamReader(terminal.in(), StandardCharsets.UTF_8))
          : Files.newBufferedReader(Path.of(input), StandardCharsets.UTF_8);
    }

    private String judge(
        RowFilterStage filter,
        Shape shape,
        SnapshotWriter snapshot,
        byte[] json,
        OversizePolicy limits) {
      if (limits.isOversize(json.length)) {
        oversize++;
        if (shape == Shape.DUMP) {
          snapshot.oversize(json.length); // a stub takes a seq, so the rows after see theirs
        }
        return "not judged: "
            + limits.reason(json.length)
            + (shape == Shape.DUMP
                ? "; lands as an oversize stub"
                : "; goes to the dead-letter queue");
      }
      FilterVerdict verdict;
      Frame.Row frame = null;
      if (shape == Shape.DUMP) {
        frame = snapshot.row(RawRecord.of(json));
        verdict = filter.judgeRow(frame);
      } else {
        verdict = filter.judge(json);
      }
      boolean lands = verdict.passes();
      String said;
      if (verdict instanceof FilterVerdict.DropError error) {
        unjudged++;
        lands = filter.onError() == FilterErrors.KEEP;
        said =
            "not judged, "
                + (lands ? "kept" : "dropped")
                + " (filter_errors: "
                + filter.onError().configName()
                + "): "
                + error.reason();
      } else {
        said = lands ? "kept" : "dropped";
      }
      if (lands) {
        kept++;
      } else {
        dropped++;
        if (frame != null) {
          snapshot.giveBack(frame);
        }
      }
      return said;
    }

    private String summary(ConfiguredUnits.Unit unit, FilterErrors onError) {
      long records = kept + dropped + oversize;
      return records
          + (records == 1 ? " record: " : " records: ")
          + kept
          + " kept, "
          + dropped
          + " dropped, "
          + unjudged
          + " not judged ("
          + (onError == FilterErrors.KEEP ? "kept" : "dropped")
          + " under filter_errors: "
          + onError.configName()
          + ")"
          + (oversize == 0 ? "" : ", " + oversize + " oversize")
          + (notRecords == 0 ? "" : "; " + notRecords + " lines not JSON")
          + unit.connection()
              .filter()
              .map(expression -> "; filter: " + expression)
              .orElse("; connection " + unit.connection().id() + " has no filter");
    }
  }
}
