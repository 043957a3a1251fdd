package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.SourceUnit;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tail units of one REST profile land on the connection's topic together (each record names its
 * unit in {@code _source_fetcher}), and a unit that is disabled lands nothing, so it never
 * collides.
 */
class SharedTailTopicTest {

  @TempDir Path directory;
  private ConfigFixture fixture;

  @BeforeEach
  void setUp() {
    fixture = new ConfigFixture(directory);
  }

  private static String profileWithTwoTails(String secondUnit) {
    return """
        sources:
          rest:
            api:
              topic: api
              units: {%s: {enabled: %s}}
              profile:
                base_url: "https://api.example.com"
                endpoints:
                  - unit: events
                    shape: tail
                    path: /events
                    query: {since: "{{ window.start }}"}
                    rows: {decoder: json_array}
                    window: {format: rfc3339_secs, lookback: 1h}
                  - unit: audit
                    shape: tail
                    path: /audit
                    query: {since: "{{ window.start }}"}
                    rows: {decoder: json_array}
                    window: {format: rfc3339_secs, lookback: 1h}
        """
        .formatted(secondUnit, !secondUnit.equals("audit"));
  }

  @Test
  void twoTailEndpointsOfOneProfileBothBind() throws Exception {
    FetcherConfig config = fixture.load(profileWithTwoTails("events"));

    assertThat(config.connections().get(0).source().units())
        .extracting(SourceUnit::unit)
        .containsExactly("events", "audit");
  }

  @Test
  void aDisabledTailOfTheProfileIsNotRefused() throws Exception {
    FetcherConfig config = fixture.load(profileWithTwoTails("audit"));

    assertThat(config.connections().get(0).source().units())
        .extracting(SourceUnit::enabled)
        .containsExactly(true, false);
  }

  @Test
  void aDisabledDumpOnAnotherUnitsTopicIsNotRefused() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            sources:
              file:
                inv:
                  topic: inv
                  units: [{unit: a, enabled: false, dump: {paths: [x]}}]
              rest:
                api:
                  topic: inv-a
                  profile:
                    base_url: "https://api.example.com"
                    endpoints:
                      - unit: events
                        shape: tail
                        path: /events
                        query: {since: "{{ window.start }}"}
                        rows: {decoder: json_array}
                        window: {format: rfc3339_secs, lookback: 1h}
            """);

    assertThat(config.connections()).hasSize(2);
  }
}
