package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Binding {@code engine: clickhouse}: what it reads, and what it refuses at load, and where. */
class ClickHouseConfigTest {

  private static final String STORE = "stores:\n  - {unit: a, shape: dump, query: \"SELECT 1\"}\n";

  @Test
  void theConnectionKeysAndAStoresSettingsBind() {
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "wh",
            "engine: clickhouse\nurl: https://ch.example:8443\nuser: reader\npassword: s3cret\n"
                + "database: analytics\ncompression: gzip\nconnect_timeout_secs: 3\n"
                + "query_timeout_secs: 60\nstores:\n  - {unit: a, shape: dump, query: \"SELECT"
                + " 1\", settings: {max_execution_time: 600, max_result_rows: 1000000,"
                + " result_overflow_mode: throw, use_uncompressed_cache: false}}\n");
    assertThat(connection.url()).isEqualTo(URI.create("https://ch.example:8443"));
    assertThat(connection.user()).contains("reader");
    assertThat(connection.password().orElseThrow().reveal()).isEqualTo("s3cret");
    assertThat(connection.database()).contains("analytics");
    assertThat(connection.compression()).isTrue();
    assertThat(connection.connectTimeoutSecs()).isEqualTo(3);
    assertThat(connection.queryTimeoutSecs()).isEqualTo(60);
    assertThat(connection.stores().get(0).settings())
        .containsExactly(
            Map.entry("max_execution_time", "600"),
            Map.entry("max_result_rows", "1000000"),
            Map.entry("result_overflow_mode", "throw"),
            Map.entry("use_uncompressed_cache", "0"));
    assertThat(connection.toString()).doesNotContain("s3cret");
    assertThat(connection.units().get(0).details().toString()).doesNotContain("s3cret");
  }

  @Test
  void credentialsInTheUrlAreRefusedWithoutQuotingThem() {
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: http://u:pw-in-url@h:8123\n" + STORE))
        .singleElement()
        .asString()
        .contains("sources.db.wh.url: must hold no user, password or query parameters")
        .doesNotContain("pw-in-url");
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: http://h:8123/?password=pw-in-url\n" + STORE))
        .singleElement()
        .asString()
        .doesNotContain("pw-in-url");
  }

  @Test
  void whatOnlyOneEngineHasIsRefusedOnTheOther() {
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: jdbc:clickhouse://h:8123\npool: {max_size: 2}\n"
                    + "dialect: postgres\nstores:\n  - {unit: a, shape: dump, query: \"SELECT"
                    + " 1\", zone: UTC, resume: by_key, key: [id]}\n"))
        .anySatisfy(p -> assertThat(p).contains("url: engine: clickhouse reads the HTTP interface"))
        .anySatisfy(p -> assertThat(p).contains("pool: applies to JDBC connections only"))
        .anySatisfy(p -> assertThat(p).contains("dialect: applies to JDBC connections only"))
        .anySatisfy(p -> assertThat(p).contains("stores[0].zone: a ClickHouse DateTime carries"))
        .anySatisfy(p -> assertThat(p).contains("stores[0].resume: engine: clickhouse has no"));
    assertThat(
            ClickHouseFixture.problems(
                "url: jdbc:h2:mem:x\ndatabase: d\ncompression: gzip\nstores:\n  - {unit: a,"
                    + " shape: dump, query: \"SELECT 1\", settings: {max_result_rows: 1}}\n"))
        .anySatisfy(p -> assertThat(p).contains("database: applies to engine: clickhouse only"))
        .anySatisfy(p -> assertThat(p).contains("compression: applies to engine: clickhouse only"))
        .anySatisfy(
            p ->
                assertThat(p).contains("stores[0].settings: applies to engine: clickhouse stores"));
  }

  @Test
  void badValuesAreRefusedAtTheirPath() {
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: http://h:8123\ncompression: zstd\nstores:\n  - {unit:"
                    + " a, shape: dump, query: \"SELECT 1\", settings: {query_id: x, Bad-Name: 1,"
                    + " max_threads: [1]}}\n"))
        .anySatisfy(p -> assertThat(p).contains("compression: must be gzip or none"))
        .anySatisfy(p -> assertThat(p).contains("settings.query_id: is set by the fetcher"))
        .anySatisfy(p -> assertThat(p).contains("is not a ClickHouse setting name"))
        .anySatisfy(p -> assertThat(p).contains("settings.max_threads: must be a number"));
    assertThat(ClickHouseFixture.problems("engine: sybase\nurl: jdbc:h2:mem:x\n" + STORE))
        .anySatisfy(p -> assertThat(p).contains("engine: unknown engine 'sybase'"));
  }

  @Test
  void equalSettingsBindEqualConnections() {
    String yaml = "engine: clickhouse\nurl: http://h:8123\n" + STORE;
    assertThat(ClickHouseFixture.connection("wh", yaml))
        .isEqualTo(ClickHouseFixture.connection("wh", "# moved\n" + yaml));
    assertThat(ClickHouseFixture.connection("wh", yaml).user()).isEqualTo(Optional.empty());
  }
}
