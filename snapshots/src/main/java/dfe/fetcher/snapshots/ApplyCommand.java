package dfe.fetcher.snapshots;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.snapshots.apply.ApplyMetrics;
import dfe.fetcher.snapshots.apply.ChangePublisher;
import dfe.fetcher.snapshots.apply.ChangePublishingException;
import dfe.fetcher.snapshots.apply.KafkaChangePublisher;
import dfe.fetcher.snapshots.apply.SnapshotApplier;
import dfe.fetcher.snapshots.apply.TableColumns;
import dfe.fetcher.snapshots.apply.TargetTable;
import dfe.fetcher.snapshots.progress.TerminalProgress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code snapshots apply}: keep a PostgreSQL table equal to the latest complete snapshot. */
@Command(
    name = "apply",
    mixinStandardHelpOptions = true,
    description = {
      "Keeps a PostgreSQL table equal to the latest complete snapshot of a store, read from files"
          + " or a topic. Rows are staged per snapshot in the database and swapped in, in one"
          + " transaction, only once the snapshot is complete; truncated, open and conflicting"
          + " snapshots never touch the table, nor does one older than the table's.",
      "From a topic, consumer group offsets are committed only past snapshots swapped in or"
          + " dropped, so a restart resumes. Prints a line per snapshot outcome.",
      "Exit 0: every snapshot read was applied, superseded or not newer than the table's;"
          + " 3: some snapshot was left open, truncated, conflicting or refused; 2: some input"
          + " was not a frame; 1: the database or Kafka failed (with --follow, a failure a retry"
          + " cannot fix: a lost connection or a Kafka timeout is retried with a back-off of"
          + " 0.5 s doubling to 30 s)."
    })
final class ApplyCommand implements Callable<Integer> {

  private static final int FAILED = 1;

  @ParentCommand private SnapshotsCommand snapshots;

  @Spec private CommandSpec command;

  @Parameters(arity = "0..*", paramLabel = "FILE", description = "Files of frames; - is stdin.")
  private List<String> files = new ArrayList<>();

  @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT[,...]")
  private String bootstrapServers;

  @Option(names = "--topic", paramLabel = "TOPIC", description = "The dump topic to apply.")
  private String topic;

  @Option(
      names = "--group",
      paramLabel = "GROUP",
      description =
          "Consumer group whose offsets record progress. Default: dfe-fetcher-apply.TABLE.")
  private String group;

  @Option(
      names = "--consumer-property",
      paramLabel = "KEY=VALUE",
      description =
          "A Kafka consumer property. Topics are read committed; isolation.level=read_uncommitted"
              + " also reads frames of aborted transactions.")
  private Map<String, String> consumerProperties = new LinkedHashMap<>();

  @Option(
      names = "--producer-property",
      paramLabel = "KEY=VALUE",
      description = "For --changes-topic.")
  private Map<String, String> producerProperties = new LinkedHashMap<>();

  @Option(
      names = "--follow",
      description =
          "Keep reading and applying until stopped, retrying lost connections and Kafka"
              + " timeouts; without it, stop at the end offsets the topic had at start.")
  private boolean follow;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "JDBC_URL",
      description = "The target database, jdbc:postgresql://HOST:PORT/DATABASE.")
  private String url;

  @Option(
      names = "--db-property",
      paramLabel = "KEY=VALUE",
      description =
          "A JDBC connection property (user, password, sslmode); a value env:NAME is read"
              + " from that environment variable.")
  private Map<String, String> dbProperties = new LinkedHashMap<>();

  @Option(names = "--table", required = true, paramLabel = "[SCHEMA.]NAME")
  private String table;

  @Mixin private KeyOption key;

  @Option(
      names = "--columns",
      paramLabel = "POINTER=NAME[:TYPE][,...]",
      description =
          "Typed columns taken from the record, e.g. /id=id:bigint,/price=price:numeric(10,2);"
              + " commas inside a type's parentheses do not separate columns. Repeatable.")
  private List<String> columnSpecs = new ArrayList<>();

  @Option(
      names = "--store",
      paramLabel = "STORE",
      description = "Apply only this store's snapshots (frames' store, CONNECTION.UNIT).")
  private String store;

  @Option(
      names = "--changes-topic",
      paramLabel = "TOPIC",
      description =
          "Publish every applied snapshot's changes against the rows it replaced, with a"
              + " tombstone per removed key.")
  private String changesTopic;

  @Option(
      names = "--metrics-address",
      paramLabel = "HOST:PORT",
      description = "Serve Prometheus /metrics here (port 0: any free port, printed on stderr).")
  private String metricsAddress;

  @Override
  public Integer call() {
    Terminal terminal = snapshots.terminal();
    if (files.isEmpty() == (topic == null)) {
      throw new ParameterException(
          command.commandLine(), "give either FILE... or --topic (with --bootstrap-server)");
    }
    if ((topic != null || changesTopic != null) && bootstrapServers == null) {
      throw new ParameterException(
          command.commandLine(), "--topic and --changes-topic need --bootstrap-server");
    }
    if (follow && topic == null) {
      throw new ParameterException(command.commandLine(), "--follow reads a --topic");
    }
    TableColumns columns;
    try {
      columns = TableColumns.of(key.pointers(), columnSpecs);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), e.getMessage());
    }
    try (ChangePublisher publisher = publisher();
        ApplyMetrics metrics = new ApplyMetrics(TargetTable.keyOf(table))) {
      if (metricsAddress != null) {
        int port = metrics.serve(metricsAddress(metricsAddress));
        terminal
            .err()
            .println(
                "snapshots apply: metrics on "
                    + metricsAddress.replaceAll(":\\d+$", "")
                    + ":"
                    + port);
      }
      int attempt = 0;
      while (true) {
        long started = System.nanoTime();
        try {
          return applyOnce(columns, publisher, metrics, terminal);
        } catch (SQLException
            | StagingFailedException
            | ChangePublishingException
            | KafkaApplyInput.ReadFailedException e) {
          String problem = describe(e);
          Optional<String> retryable = follow ? RetryBackoff.retryable(e) : Optional.empty();
          if (retryable.isEmpty()) {
            terminal.err().println("snapshots apply: " + table + ": " + problem);
            return FAILED;
          }
          // A run that went well for longer than the longest wait starts the back-off afresh.
          if (System.nanoTime() - started > RetryBackoff.FOLLOW.max().toNanos()) {
            attempt = 0;
          }
          attempt++;
          Duration wait = RetryBackoff.FOLLOW.before(attempt);
          metrics.retried(retryable.get());
          terminal
              .err()
              .println(
                  "snapshots apply: "
                      + table
                      + ": "
                      + problem
                      + "; retrying attempt="
                      + attempt
                      + " in_ms="
                      + wait.toMillis());
          // Resuming is a restart: from the committed offsets, which never pass a frame of a
          // snapshot not yet swapped in, with the table's state read back from the database.
          try {
            Thread.sleep(wait.toMillis());
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return FAILED;
          }
        }
      }
    } catch (IOException e) {
      terminal
          .err()
          .println(
              "snapshots apply: --metrics-address "
                  + metricsAddress
                  + ": cannot listen: "
                  + e.getMessage());
      return FAILED;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), e.getMessage());
    }
  }

  /** One run over one database connection and (from a topic) one consumer: its exit code. */
  private int applyOnce(
      TableColumns columns, ChangePublisher publisher, ApplyMetrics metrics, Terminal terminal)
      throws SQLException {
    try (Connection connection = DriverManager.getConnection(url, connectionProperties());
        TargetTable target = TargetTable.open(connection, table, columns)) {
      SnapshotApplier applier =
          new SnapshotApplier(
              target, Optional.ofNullable(store), publisher, terminal.out(), metrics);
      FrameInput input =
          new FrameInput(frame -> stage(applier, frame), terminal.in(), terminal.err());
      try (TerminalProgress progress = input.showProgress("apply", terminal)) {
        if (topic != null) {
          AtomicBoolean stop = new AtomicBoolean();
          KafkaApplyInput kafka =
              new KafkaApplyInput(
                  new KafkaConsumerSettings(bootstrapServers, consumerProperties),
                  topic,
                  group != null ? group : "dfe-fetcher-apply." + target.name());
          kafka.run(applier, input, follow, stop);
        } else {
          input.readAll(files);
          applier.settle();
        }
      }
      applier.reportWaiting();
      if (applier.unappliedSnapshots() > 0) {
        return SnapshotsCommand.NOT_COMPLETE;
      }
      return input.wasClean() ? SnapshotsCommand.ALL_COMPLETE : SnapshotsCommand.INVALID_INPUT;
    }
  }

  private static String describe(Exception e) {
    if (e instanceof SQLException sql) {
      return "database: " + sql.getMessage();
    }
    if (e instanceof StagingFailedException staging) {
      return "database: " + staging.getCause().getMessage();
    }
    return e.getMessage();
  }

  private static void stage(SnapshotApplier applier, Frame frame) {
    try {
      applier.accept(frame);
    } catch (SQLException e) {
      throw new StagingFailedException(e);
    }
  }

  private Properties connectionProperties() {
    Properties properties = new Properties();
    properties.setProperty("ApplicationName", "dfe-fetcher snapshots apply");
    properties.setProperty("reWriteBatchedInserts", "true");
    dbProperties.forEach(
        (key, value) -> {
          if (value.startsWith("env:")) {
            String resolved = System.getenv(value.substring(4));
            if (resolved == null) {
              throw new ParameterException(
                  command.commandLine(),
                  "--db-property "
                      + key
                      + ": environment variable "
                      + value.substring(4)
                      + " is not set");
            }
            value = resolved;
          }
          properties.setProperty(key, value);
        });
    return properties;
  }

  private InetSocketAddress metricsAddress(String address) {
    int colon = address.lastIndexOf(':');
    try {
      return new InetSocketAddress(
          address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    } catch (RuntimeException e) {
      throw new ParameterException(
          command.commandLine(), "--metrics-address " + address + ": expected HOST:PORT");
    }
  }

  private ChangePublisher publisher() {
    return changesTopic == null
        ? ChangePublisher.NONE
        : new KafkaChangePublisher(bootstrapServers, changesTopic, producerProperties);
  }

  /** A staging write failed inside the frame reader; carried out to {@link #call}. */
  static final class StagingFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StagingFailedException(SQLException cause) {
      super(cause);
    }

    @Override
    public synchronized SQLException getCause() {
      return (SQLException) super.getCause();
    }
  }
}
