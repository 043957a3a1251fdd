package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.tick.TickOutcome;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FetcherService#reload}: a changed filter applies from the next tick, without restart. */
class FetcherServiceReloadTest {

  private static final String TOPIC = "inventory-hosts_land";

  private static final String CONFIG =
      FetcherWorkspace.HEADER
          + """
          sources:
            file:
              inventory:
                topic: inventory
                filter: '%s'
                units:
                  - unit: hosts
                    dump: {paths: [data/hosts/*.ndjson]}
          """;

  @TempDir Path directory;

  @Test
  void aReloadedFilterDecidesTheNextTicksRows() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    String colours =
        FetcherWorkspace.ndjson(
            "{\"id\":1,\"colour\":\"red\"}",
            "{\"id\":2,\"colour\":\"blue\"}",
            "{\"id\":3,\"colour\":\"red\"}");
    workspace.write("data/hosts/1.ndjson", colours);
    Path config = workspace.config(CONFIG.formatted("record.colour == \"red\""));

    try (FetcherService service =
        FetcherService.create(workspace.load(config), Clock.systemUTC())) {
      assertThat(service.runOnce()).containsValue(new TickOutcome.Succeeded(1, 4, 1, 0));

      service.reload(
          workspace.load(workspace.config(CONFIG.formatted("record.colour != \"red\""))));
      workspace.write("data/hosts/2.ndjson", colours);
      assertThat(service.runOnce()).containsValue(new TickOutcome.Succeeded(1, 3, 2, 0));
    }

    assertThat(workspace.completeSnapshotRows(TOPIC))
        .containsExactly(
            List.of("{\"id\":1,\"colour\":\"red\"}", "{\"id\":3,\"colour\":\"red\"}"),
            List.of("{\"id\":2,\"colour\":\"blue\"}"));
  }
}
