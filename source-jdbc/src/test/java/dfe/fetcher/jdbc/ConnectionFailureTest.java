package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A database that cannot be reached fails the tick in the database's own words. */
class ConnectionFailureTest {

  @Test
  void aDatabaseThatDoesNotExistIsNamedAsPostgresqlNamesIt() {
    String url = "jdbc:postgresql://127.0.0.1:5432/dfe_no_such_database";
    DbStore store = TestDatabase.dump("accounts", "SELECT 1");
    DbConnection connection =
        new DbConnection(
            "crm",
            url,
            Optional.of("postgres"),
            Optional.empty(),
            Map.of(),
            Dialect.ofUrl(url),
            0,
            1,
            1,
            List.of(store));

    try (OpenConnection open =
        connection.open(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT))) {
      assertThatThrownBy(
              () ->
                  open.source("accounts")
                      .read(Optional.empty(), new RecordingSink(), new Cancellation()))
          .isInstanceOf(SourceException.class)
          .satisfies(
              failure ->
                  assertThat(failure.getMessage())
                      .startsWith("crm.accounts: ")
                      .contains("database \"dfe_no_such_database\" does not exist")
                      .doesNotContain("request timed out"));
    }
  }

  @Test
  void aRefusedPortIsNamedInTheDriversWordsNotThePoolsTimeout() {
    String url = "jdbc:mariadb://127.0.0.1:1/test";
    DbStore store = TestDatabase.dump("accounts", "SELECT 1");
    DbConnection connection =
        new DbConnection(
            "crm",
            url,
            Optional.of("root"),
            Optional.empty(),
            Map.of(),
            Dialect.ofUrl(url),
            0,
            1,
            1,
            List.of(store));

    try (OpenConnection open =
        connection.open(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT))) {
      assertThatThrownBy(
              () ->
                  open.source("accounts")
                      .read(Optional.empty(), new RecordingSink(), new Cancellation()))
          .isInstanceOf(SourceException.class)
          .satisfies(
              failure ->
                  assertThat(failure.getMessage())
                      .startsWith("crm.accounts: cannot connect to " + url)
                      .doesNotContain("request timed out"));
    }
  }
}
