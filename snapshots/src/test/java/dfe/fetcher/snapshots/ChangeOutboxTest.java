package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.hosts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.change.ChangeEvent;
import dfe.fetcher.core.envelope.FrameParser;
import dfe.fetcher.snapshots.apply.ApplyMetrics;
import dfe.fetcher.snapshots.apply.ChangePublisher;
import dfe.fetcher.snapshots.apply.ChangePublishingException;
import dfe.fetcher.snapshots.apply.PostgresSchema;
import dfe.fetcher.snapshots.apply.SnapshotApplier;
import dfe.fetcher.snapshots.apply.TableColumns;
import dfe.fetcher.snapshots.apply.TargetTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The changes topic hears of committed swaps only, and of every one: a swap whose changes the topic
 * did not take (a broker gone, a run killed after the commit) leaves them for the next run.
 */
class ChangeOutboxTest {

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.postgres();

  private PostgresSchema schema; // set by the fixture before each test

  /** Takes events, and acknowledges them at flush unless told to fail. */
  private static final class Topic implements ChangePublisher {
    private final boolean refuses;
    private final List<ChangeEvent> sent = new ArrayList<>();
    private final List<String> acknowledged = new ArrayList<>();

    Topic(boolean refuses) {
      this.refuses = refuses;
    }

    @Override
    public void publish(ChangeEvent event) {
      sent.add(event);
    }

    @Override
    public void flush() {
      if (refuses) {
        throw new ChangePublishingException("the broker is gone", null);
      }
      sent.forEach(e -> acknowledged.add(new String(e.toJson(), StandardCharsets.UTF_8)));
      sent.clear();
    }

    @Override
    public void close() {}
  }

  private String apply(Topic topic, SnapshotFrames... dumps) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    try (Connection connection = PostgresSchema.connect();
        TargetTable target =
            TargetTable.open(
                connection, schema.table("hosts"), TableColumns.of(List.of("/id"), List.of()));
        ApplyMetrics metrics = new ApplyMetrics(schema.table("hosts"))) {
      SnapshotApplier applier =
          new SnapshotApplier(
              target,
              Optional.empty(),
              topic,
              new PrintStream(progress, true, StandardCharsets.UTF_8),
              metrics);
      FrameParser parser = new FrameParser();
      for (SnapshotFrames dump : dumps) {
        for (String line : dump.lines()) {
          applier.accept(parser.parse(line.getBytes(StandardCharsets.UTF_8)));
        }
      }
      applier.settle();
    }
    return progress.toString(StandardCharsets.UTF_8);
  }

  @Test
  void changesOfACommittedSwapTheTopicDidNotTakeArePublishedFirstByTheNextRun() throws Exception {
    Topic down = new Topic(true);
    assertThatThrownBy(() -> apply(down, hosts(1, "a", "b")))
        .isInstanceOf(ChangePublishingException.class);
    // The swap committed: the table holds the snapshot though its changes were not acknowledged.
    assertThat(schema.rows("hosts")).containsOnlyKeys("a", "b");
    assertThat(schema.scalar("SELECT count(*) FROM " + schema.table("dfe_fetcher_apply_changes")))
        .isEqualTo("2");

    Topic up = new Topic(false);
    String progress = apply(up, hosts(2, "b", "c"));

    assertThat(progress.lines().findFirst())
        .hasValue("published-pending changes=2 table=" + schema.table("hosts"));
    // The waiting changes first, in the order they were made; then the new swap's.
    assertThat(up.acknowledged.subList(0, 2))
        .containsExactly(
            "{\"op\":\"add\",\"key\":\"a\",\"before\":null,\"after\":{\"id\": \"a\", \"seen\": 1}}",
            "{\"op\":\"add\",\"key\":\"b\",\"before\":null,\"after\":{\"id\": \"b\", \"seen\": 1}}");
    assertThat(up.acknowledged.subList(2, up.acknowledged.size()))
        .containsExactlyInAnyOrder(
            "{\"op\":\"remove\",\"key\":\"a\",\"before\":{\"id\": \"a\", \"seen\": 1},\"after\":null}",
            "{\"op\":\"change\",\"key\":\"b\",\"before\":{\"id\": \"b\", \"seen\": 1},"
                + "\"after\":{\"id\": \"b\", \"seen\": 2}}",
            "{\"op\":\"add\",\"key\":\"c\",\"before\":null,\"after\":{\"id\": \"c\", \"seen\": 2}}");
    assertThat(schema.scalar("SELECT count(*) FROM " + schema.table("dfe_fetcher_apply_changes")))
        .isEqualTo("0");
  }

  @Test
  void aSwapThatIsRolledBackLeavesNoChangeToPublish() throws Exception {
    apply(new Topic(false), hosts(1, "a"));
    SnapshotFrames repeatsItsKey =
        SnapshotFrames.dump(ApplyFixture.STORE, 2, "{\"id\":\"a\"}", "{\"id\":\"a\"}");
    Topic topic = new Topic(false);

    String progress = apply(topic, repeatsItsKey);

    assertThat(progress).startsWith("refused snapshot=" + repeatsItsKey.id());
    assertThat(topic.acknowledged).isEmpty();
    assertThat(schema.scalar("SELECT count(*) FROM " + schema.table("dfe_fetcher_apply_changes")))
        .isEqualTo("0");
  }
}
