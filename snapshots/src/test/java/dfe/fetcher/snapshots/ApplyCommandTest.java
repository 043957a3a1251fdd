package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.STORE;
import static dfe.fetcher.snapshots.ApplyFixture.hosts;
import static dfe.fetcher.snapshots.SnapshotFrames.dump;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code snapshots apply} from files into a real PostgreSQL. */
class ApplyCommandTest {

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.postgres();

  @TempDir Path directory;
  private PostgresSchema schema; // set by the fixture before each test

  private CommandRun apply(List<String> lines, String... extra) throws Exception {
    Path file = SnapshotFrames.file(directory, "frames-" + System.nanoTime() + ".ndjson", lines);
    List<String> args = fixture.apply(extra);
    args.add(file.toString());
    return CommandRun.of(args.toArray(String[]::new));
  }

  @Test
  void aShuffledDumpDeliveredTwiceIsAppliedWhole() throws Exception {
    SnapshotFrames first = hosts(1, "a", "b", "c", "d");

    CommandRun run = apply(first.shuffledWithDuplicates(3));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.outLines())
        .containsExactly(
            "applied snapshot="
                + first.id()
                + " store="
                + STORE
                + " rows=4 stubs=0 table="
                + schema.table("hosts"));
    assertThat(schema.rows("hosts"))
        .containsExactly(
            Map.entry("a", "{\"id\": \"a\", \"seen\": 1}"),
            Map.entry("b", "{\"id\": \"b\", \"seen\": 1}"),
            Map.entry("c", "{\"id\": \"c\", \"seen\": 1}"),
            Map.entry("d", "{\"id\": \"d\", \"seen\": 1}"));
    assertThat(schema.tables())
        .containsExactly("dfe_fetcher_apply", "dfe_fetcher_apply_staging", "hosts");
  }

  @Test
  void aTruncatedDumpNeverTouchesTheTableAndExitsThree() throws Exception {
    apply(hosts(1, "a", "b").lines());
    SnapshotFrames truncated = hosts(2, "a", "b", "c");

    CommandRun run = apply(truncated.withoutRow(1));

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.outLines())
        .containsExactly(
            "not-applied snapshot="
                + truncated.id()
                + " store="
                + STORE
                + " status=truncated missing=1");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a", "b");
    assertThat(schema.rows("hosts").get("a")).contains("\"seen\": 1");
  }

  @Test
  void twoInterleavedDumpsLeaveTheNewerAndSupersedeTheOlder() throws Exception {
    SnapshotFrames older = hosts(1, "a", "b", "c");
    SnapshotFrames newer = hosts(2, "b", "c", "d");

    CommandRun run = apply(SnapshotFrames.interleave(older.lines(), newer.lines()));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.outLines())
        .containsExactly(
            "applied snapshot="
                + newer.id()
                + " store="
                + STORE
                + " rows=3 stubs=0 table="
                + schema.table("hosts"),
            "superseded snapshot="
                + older.id()
                + " store="
                + STORE
                + " status=complete by="
                + newer.id());
    assertThat(schema.rows("hosts")).containsOnlyKeys("b", "c", "d");
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  @Test
  void aConflictingDumpIsSkippedAndItsStagingDropped() throws Exception {
    apply(hosts(1, "a").lines());
    SnapshotFrames conflicting = hosts(2, "a", "b");
    List<String> lines = new ArrayList<>(conflicting.lines());
    lines.add(lines.get(2).replace("\"id\":\"b\"", "\"id\":\"other\""));

    CommandRun run = apply(lines);

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("skipped snapshot=" + conflicting.id() + " store=" + STORE + " status=conflict")
        .contains("seq 1 arrived with two different records");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  @Test
  void anOlderCompleteDumpArrivingAfterANewerOneNeverReplacesIt() throws Exception {
    SnapshotFrames older = hosts(1, "old");
    SnapshotFrames newer = hosts(2, "new");
    apply(newer.lines());

    CommandRun run = apply(older.lines());

    assertThat(run.exitCode()).isZero();
    assertThat(run.outLines())
        .containsExactly(
            "skipped snapshot="
                + older.id()
                + " store="
                + STORE
                + " status=not-newer table_holds="
                + newer.id());
    assertThat(schema.rows("hosts")).containsOnlyKeys("new");
  }

  @Test
  void anOpenDumpIsLeftStagedAndDroppedOnceANewerOneIsApplied() throws Exception {
    SnapshotFrames open = hosts(1, "a", "b");
    CommandRun first = apply(open.withoutEnd());
    assertThat(first.exitCode()).isEqualTo(3);
    assertThat(first.outLines())
        .containsExactly("not-applied snapshot=" + open.id() + " store=" + STORE + " status=open");
    assertThat(schema.tables()).anyMatch(name -> name.startsWith("hosts__stage_"));

    CommandRun second = apply(hosts(2, "c").lines());

    assertThat(second.exitCode()).isZero();
    assertThat(schema.rows("hosts")).containsOnlyKeys("c");
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  @Test
  void anOpenDumpIsDroppedAsAbandonedOnceANewerDumpOfItsStoreBegins() throws Exception {
    apply(hosts(1, "a").lines());
    SnapshotFrames failed = hosts(2, "a", "b");
    SnapshotFrames next = hosts(3, "a", "b", "c");
    List<String> lines = new ArrayList<>(failed.withoutEnd());
    lines.addAll(next.withoutEnd());

    CommandRun run = apply(lines);

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.outLines())
        .containsExactly(
            "abandoned snapshot="
                + failed.id()
                + " store="
                + STORE
                + " status=open newer="
                + next.id(),
            "not-applied snapshot=" + next.id() + " store=" + STORE + " status=open");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
    assertThat(schema.tables().stream().filter(name -> name.contains("__stage_")))
        .containsExactly("hosts__stage_" + next.id().substring(next.id().length() - 12));
  }

  @Test
  void aTruncatedDumpOfAnotherStoreIsNotAbandonedByThisStoresDumps() throws Exception {
    SnapshotFrames other = dump("inventory.disks", 1, "{\"id\":\"d1\"}", "{\"id\":\"d2\"}");
    List<String> lines = new ArrayList<>(other.withoutRow(1));
    lines.addAll(hosts(2, "a").lines());

    CommandRun run = apply(lines, "--store", "inventory.disks");

    assertThat(run.outLines())
        .containsExactly(
            "skipped snapshot="
                + hosts(2, "a").id()
                + " store="
                + STORE
                + " status=other-store table_store=inventory.disks",
            "not-applied snapshot="
                + other.id()
                + " store=inventory.disks status=truncated missing=1");
  }

  @Test
  void typedColumnsAreTakenFromTheRecord() throws Exception {
    SnapshotFrames typed =
        dump(
            STORE,
            1,
            "{\"id\":7,\"site\":{\"name\":\"lyon\"},\"cpus\":8}",
            "{\"id\":9,\"cpus\":2}");

    CommandRun run =
        apply(typed.lines(), "--columns", "/id=id:bigint,/site/name=site,/cpus=cpus:int");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(
            schema.scalar(
                "SELECT string_agg(id || ':' || coalesce(site, '-') || ':' || (cpus * 2), ' ' ORDER BY"
                    + " id) FROM ${schema}.hosts"))
        .isEqualTo("7:lyon:16 9:-:4");
    assertThat(
            schema.scalar(
                "SELECT data_type FROM information_schema.columns WHERE table_schema = '${schema}'"
                    + " AND table_name = 'hosts' AND column_name = 'id'"))
        .isEqualTo("bigint");
  }

  @Test
  void aDumpWhoseKeyRepeatsIsRefusedAndTheTableKept() throws Exception {
    apply(hosts(1, "a").lines());
    SnapshotFrames repeated = hosts(2, "x", "x");

    CommandRun run = apply(repeated.lines());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("refused snapshot=" + repeated.id() + " store=" + STORE + " reason=");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
  }

  @Test
  void anotherStoresDumpIsNotAppliedToTheTable() throws Exception {
    apply(hosts(1, "a").lines());
    SnapshotFrames other = dump("inventory.racks", 2, "{\"id\":\"r1\"}");

    CommandRun run = apply(other.lines());

    assertThat(run.outLines())
        .containsExactly(
            "skipped snapshot="
                + other.id()
                + " store=inventory.racks status=other-store"
                + " table_store="
                + STORE);
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
  }

  @Test
  void anEmptyCompleteDumpEmptiesTheTable() throws Exception {
    apply(hosts(1, "a", "b").lines());
    SnapshotFrames empty = hosts(2);

    CommandRun run = apply(empty.lines());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("applied snapshot=" + empty.id() + " store=" + STORE + " rows=0 ");
    assertThat(schema.rows("hosts")).isEmpty();
  }

  @Test
  void givingNeitherFilesNorATopicIsAUsageError() throws Exception {
    CommandRun run = CommandRun.of(fixture.apply().toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("give either FILE... or --topic");
  }

  @Test
  void aRecordJsonbCannotHoldRefusesItsDumpAndKeepsTheTable() throws Exception {
    apply(hosts(1, "a").lines());
    SnapshotFrames nul = dump(STORE, 2, "{\"id\":\"n\",\"s\":\"\\u0000\"}", "{\"id\":\"m\"}");

    CommandRun run = apply(nul.lines());

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("refused snapshot=" + nul.id() + " store=" + STORE + " reason=")
        .contains("\\u0000");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  @Test
  void aNumericTypeWithPrecisionAndScaleIsOneColumn() throws Exception {
    SnapshotFrames priced = dump(STORE, 1, "{\"id\":\"a\",\"price\":12.5}");

    CommandRun run =
        apply(
            priced.lines(), "--columns", "/price=price:numeric(10,2),/id=id", "--columns", "/n=n");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(schema.scalar("SELECT price::text FROM ${schema}.hosts")).isEqualTo("12.50");
    assertThat(
            schema.scalar(
                "SELECT numeric_precision || ',' || numeric_scale FROM information_schema.columns"
                    + " WHERE table_schema = '${schema}' AND table_name = 'hosts'"
                    + " AND column_name = 'price'"))
        .isEqualTo("10,2");
  }

  @Test
  void aValueAVarcharWouldTruncateRefusesTheSnapshotNamingKeyPointerAndType() throws Exception {
    String[] columns = {"--columns", "/name=name:varchar(3)"};
    apply(dump(STORE, 1, "{\"id\":\"a\",\"name\":\"abc\"}").lines(), columns);
    SnapshotFrames tooLong =
        dump(STORE, 2, "{\"id\":\"b\",\"name\":\"ab\"}", "{\"id\":\"c\",\"name\":\"abcd\"}");

    CommandRun run = apply(tooLong.lines(), columns);

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("refused snapshot=" + tooLong.id() + " store=" + STORE + " reason=")
        .contains("key \"c\"", "/name", "varchar(3)")
        .doesNotContain("abcd");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
  }

  @Test
  void aNumberANumericColumnWouldRoundRefusesTheSnapshot() throws Exception {
    String[] columns = {"--columns", "/cpus=cpus:numeric(4)"};
    apply(dump(STORE, 1, "{\"id\":\"a\",\"cpus\":8}").lines(), columns);
    SnapshotFrames fractional = dump(STORE, 2, "{\"id\":\"b\",\"cpus\":1.5}");

    CommandRun run = apply(fractional.lines(), columns);

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("refused snapshot=" + fractional.id())
        .contains("key \"b\"", "/cpus", "numeric(4)");
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
  }

  @Test
  void anOffsetATimestampWithoutZoneWouldDropRefusesTheSnapshot() throws Exception {
    SnapshotFrames offset = dump(STORE, 1, "{\"id\":\"a\",\"at\":\"2026-05-01T12:00:00+02:00\"}");

    CommandRun run = apply(offset.lines(), "--columns", "/at=at:timestamp");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.outLines()).singleElement().asString().contains("key \"a\"", "/at", "timestamp");
    assertThat(schema.rows("hosts")).isEmpty();
  }

  @Test
  void aTimestampWithoutZoneIsReadAsUtcWhateverTheJvmZone() throws Exception {
    SnapshotFrames local = dump(STORE, 1, "{\"id\":\"a\",\"at\":\"2026-05-01T12:00:00\"}");
    TimeZone zone = TimeZone.getDefault();
    CommandRun run;
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Europe/Paris"));
      run = apply(local.lines(), "--columns", "/at=at:timestamptz");
    } finally {
      TimeZone.setDefault(zone);
    }

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(
            schema.scalar(
                "SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM ${schema}.hosts"))
        .isEqualTo("2026-05-01 12:00");
  }

  @Test
  void aDoubleKeepsEveryDigitOfTheNumberItWasSent() throws Exception {
    SnapshotFrames exact = dump(STORE, 1, "{\"id\":\"a\",\"x\":0.30000000000000004}");

    CommandRun run = apply(exact.lines(), "--columns", "/x=x:double precision");

    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(schema.scalar("SELECT (x = 0.1::float8 + 0.2::float8)::text FROM ${schema}.hosts"))
        .isEqualTo("true");
  }

  @Test
  void aValueThatDoesNotCastRefusesTheSnapshotNamingPointerAndType() throws Exception {
    SnapshotFrames word = dump(STORE, 1, "{\"id\":\"a\",\"cpus\":\"eight\"}");

    CommandRun run = apply(word.lines(), "--columns", "/cpus=cpus:int");

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("refused snapshot=" + word.id())
        .contains("/cpus", "int");
    assertThat(schema.rows("hosts")).isEmpty();
  }
}
