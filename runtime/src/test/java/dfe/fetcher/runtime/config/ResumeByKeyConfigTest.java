package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Mark;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code resume: by_key} on a dump store: what loads, and what is refused with its config path. */
class ResumeByKeyConfigTest {

  @TempDir Path directory;
  private ConfigFixture fixture;

  @BeforeEach
  void setUp() {
    fixture = new ConfigFixture(directory);
  }

  @Test
  void aResumableDumpOnTheKafkaOutputLoadsAndCommitsDumpResumeMarks() throws Exception {
    FetcherConfig config = fixture.load(kafka("{" + dump("key: [id], resume: by_key") + "}"));

    assertThat(config.connections().get(0).source().units().get(0).markKind())
        .isEqualTo(Optional.of(Mark.Kind.DUMP_RESUME));
  }

  @Test
  void resumeByKeyWithoutAKeyIsRefused() {
    List<String> problems = fixture.problems(kafka("{" + dump("resume: by_key") + "}"));

    assertThat(problems)
        .singleElement()
        .asString()
        .contains("sources.db.crm.stores[0].resume: resume: by_key needs the store's unique key");
  }

  @Test
  void resumeOnATailIsRefused() {
    List<String> problems =
        fixture.problems(
            kafka(
                "{unit: events, shape: tail, query: \"SELECT * FROM events\", key: [id],"
                    + " resume: by_key}"));

    assertThat(problems)
        .singleElement()
        .asString()
        .contains("sources.db.crm.stores[0].resume: applies to dump stores only");
  }

  @Test
  void anUnknownResumeModeIsRefusedNamingTheModes() {
    List<String> problems = fixture.problems(kafka("{" + dump("key: [id], resume: by_time") + "}"));

    assertThat(problems)
        .singleElement()
        .asString()
        .contains(
            "sources.db.crm.stores[0].resume: unknown resume mode 'by_time'; one of none,"
                + " by_key");
  }

  @Test
  void aResumableDumpOnTheFileOutputIsRefusedSayingWhy() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              db:
                crm:
                  url: "jdbc:h2:mem:crm"
                  topic: crm
                  stores:
                    - {%s}
            """
                .formatted(dump("key: [id], resume: by_key")));

    assertThat(problems)
        .singleElement()
        .asString()
        .contains("sources.db.crm.stores[0].resume: resume: by_key needs output.type: kafka")
        .contains("the file output cannot be read back");
  }

  @Test
  void chunkRowsWithoutResumeIsRefused() {
    List<String> problems = fixture.problems(kafka("{" + dump("chunk_rows: 10") + "}"));

    assertThat(problems)
        .singleElement()
        .asString()
        .contains(
            "sources.db.crm.stores[0].chunk_rows: applies to a dump with resume: by_key only");
  }

  private static String dump(String settings) {
    return "unit: accounts, shape: dump, query: \"SELECT * FROM accounts\", " + settings;
  }

  private static String kafka(String store) {
    return """
        output:
          type: kafka
          kafka: {bootstrap_servers: "127.0.0.1:9"}
        sources:
          db:
            crm:
              url: "jdbc:h2:mem:crm"
              topic: crm
              stores:
                - %s
        """
        .formatted(store);
  }
}
