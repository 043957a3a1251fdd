package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.runtime.tick.TickOutcome;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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

  private static final String REST_CONFIG =
      FetcherWorkspace.HEADER
          + """
          sources:
            rest:
          %s    api:
                topic: api
                vars: {tenant: acme}
                auth: {mode: bearer, token: env:API_TOKEN}
                units: {events: {lookback: 2h}}
                profile:
                  base_url: "https://{{ vars.tenant }}.example.com"
                  headers: {Accept: application/json}
                  endpoints:
                    - unit: assets
                      shape: dump
                      path: /assets
                      body: {filter: {tenant: "{{ vars.tenant }}"}}
                      method: POST
                      rows: {decoder: json_at, at: /items}
                      paginate: {type: cursor, from: "body:/next", into: "query:after"}
                      fail_when: "has(body.error)"
                    - unit: events
                      shape: tail
                      path: /events
                      query: {since: "{{ window.start }}"}
                      rows: {decoder: json_array}
                      window: {format: rfc3339_secs, lookback: 1h}
          """;

  @Test
  void aReloadThatOnlyMovesARestConnectionInTheFileKeepsItRunning() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    Logger log = (Logger) LoggerFactory.getLogger("dfe.fetcher.service");
    log.addAppender(logged);
    Map<String, String> environment = Map.of("API_TOKEN", "t-1");
    try (FetcherService service =
        FetcherService.create(
            workspace.load(workspace.config(REST_CONFIG.formatted("")), environment),
            Clock.systemUTC())) {
      service.reload(
          workspace.load(
              workspace.config(REST_CONFIG.formatted("    # the API of acme's tenant\n")),
              environment));
    } finally {
      log.detachAppender(logged);
    }

    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .filteredOn(line -> line.startsWith("event=connection_stopped"))
        .isEmpty();
    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .filteredOn(line -> line.startsWith("event=config_reloaded"))
        .singleElement()
        .asString()
        .contains("replaced_or_removed=0");
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
