package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.runtime.tick.TickOutcome;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

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

  @Test
  void aReloadThatChangesASettingOutsideSourcesNamesItAsNeedingARestart() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    Logger log = (Logger) LoggerFactory.getLogger("dfe.fetcher.service");
    log.addAppender(logged);
    try (FetcherService service =
        FetcherService.create(
            workspace.load(workspace.config(CONFIG.formatted("true"))), Clock.systemUTC())) {
      service.reload(
          workspace.load(
              workspace.config(
                  CONFIG.formatted("true").replace("instance_id: test", "instance_id: other")
                      + "scheduler: {default_interval_secs: 7}\n")));
    } finally {
      log.detachAppender(logged);
    }

    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .filteredOn(line -> line.startsWith("event=config_reload_partial"))
        .singleElement()
        .asString()
        .contains("settings=instance_id,scheduler ");
  }
}
