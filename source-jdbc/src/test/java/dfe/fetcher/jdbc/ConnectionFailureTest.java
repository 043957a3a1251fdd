package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
    String message =
        firstTickFailure("jdbc:postgresql://127.0.0.1:5432/dfe_no_such_database", "postgres");

    assertThat(message)
        .startsWith("crm.accounts: ")
        .contains("database \"dfe_no_such_database\" does not exist")
        .doesNotContain("request timed out");
  }

  @Test
  void aRefusedPortIsNamedInTheDriversWordsNotThePoolsTimeout() {
    String url = "jdbc:mariadb://127.0.0.1:1/test";

    String message = firstTickFailure(url, "root");

    assertThat(message)
        .startsWith("crm.accounts: cannot connect to " + url)
        .doesNotContain("request timed out");
  }

  /** The message of the failure a one-store connection to {@code url} ends its first tick with. */
  private static String firstTickFailure(String url, String user) {
    DbStore store = TestDatabase.dump("accounts", "SELECT 1");
    DbConnection connection =
        new DbConnection(
            "crm",
            url,
            Optional.of(user),
            Optional.empty(),
            Map.of(),
            Dialect.ofUrl(url),
            0,
            1,
            1,
            List.of(store));
    try (OpenConnection open =
        connection.open(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT))) {
      SourceException failure =
          catchThrowableOfType(
              SourceException.class,
              () ->
                  open.source("accounts")
                      .read(Optional.empty(), new RecordingSink(), new Cancellation()));
      assertThat(failure).as("the tick fails").isNotNull();
      return failure.getMessage();
    }
  }
}
