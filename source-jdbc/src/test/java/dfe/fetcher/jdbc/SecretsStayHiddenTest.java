package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.Secret;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A password in the URL or in {@code password:} reaches no log line, no error, no summary. */
class SecretsStayHiddenTest {

  private static final String URL_SECRET = "urlS3cretPw";
  private static final String PASSWORD_SECRET = "fieldS3cretPw";

  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  private final Logger hikari = (Logger) LoggerFactory.getLogger("com.zaxxer.hikari");

  @BeforeEach
  void captureLogs() {
    ch.qos.logback.classic.Level before = root.getLevel();
    root.setLevel(ch.qos.logback.classic.Level.DEBUG);
    hikari.setLevel(ch.qos.logback.classic.Level.DEBUG);
    logs.start();
    root.addAppender(logs);
    levelBefore = before;
  }

  private ch.qos.logback.classic.Level levelBefore;

  @AfterEach
  void release() {
    root.detachAppender(logs);
    root.setLevel(levelBefore);
    hikari.setLevel(ch.qos.logback.classic.Level.WARN);
  }

  @Test
  void aServerThatCannotBeReachedIsReportedWithoutThePasswords() throws Exception {
    String url = "jdbc:postgresql://dfe:" + URL_SECRET + "@127.0.0.1:1/test?password=" + URL_SECRET;
    assertFailsWithoutSecrets(connection(url, "SELECT 1"));
  }

  @Test
  void aQueryThatFailsIsReportedWithoutThePasswords() throws Exception {
    // Trust authentication accepts any password, so the failure is the query's.
    String url = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=" + URL_SECRET;
    assertFailsWithoutSecrets(connection(url, "SELECT * FROM dfe_no_such_table"));
  }

  @Test
  void anEmbeddedUrlTheDriverQuotesIsReportedMasked() throws Exception {
    String url = "jdbc:h2:mem:secrets;NO_SUCH_SETTING=1;PASSWORD=" + URL_SECRET;
    assertFailsWithoutSecrets(connection(url, "SELECT 1"));
  }

  @Test
  void aUrlTheDriverCannotParseIsReportedWithoutItsPassword() throws Exception {
    // MariaDB's driver takes user info for host and port and quotes what it read as the port
    // ("Incorrect port value : <password>@127.0.0.1"): a piece of the URL, not the URL.
    String url = "jdbc:mariadb://root:" + URL_SECRET + "@127.0.0.1:3306/test";
    assertFailsWithoutSecrets(connection(url, "SELECT 1"));
  }

  @Test
  void theConnectionsSummaryMasksTheUrl() {
    DbConnection connection =
        connection("jdbc:postgresql://dfe:" + URL_SECRET + "@db/crm?password=" + URL_SECRET, "x");
    List<String> printed = new ArrayList<>();
    printed.add(connection.toString());
    for (SourceUnit unit : connection.units()) {
      printed.addAll(unit.details());
    }
    assertThat(String.join("\n", printed))
        .contains("jdbc:postgresql://dfe:***@db/crm?password=***")
        .doesNotContain(URL_SECRET)
        .doesNotContain(PASSWORD_SECRET);
  }

  private void assertFailsWithoutSecrets(DbConnection connection) throws Exception {
    List<String> reported = new ArrayList<>();
    try (OpenConnection open =
        connection.open(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT))) {
      assertThatThrownBy(
              () ->
                  open.source("probe")
                      .read(Optional.empty(), new RecordingSink(), new Cancellation()))
          .isInstanceOf(SourceException.class)
          .satisfies(
              failure -> {
                for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                  reported.add(String.valueOf(cause.getMessage()));
                }
              });
    }
    for (ILoggingEvent event : logs.list) {
      reported.add(event.getFormattedMessage());
      if (event.getThrowableProxy() != null) {
        reported.add(event.getThrowableProxy().getMessage());
      }
    }
    assertThat(reported).isNotEmpty();
    assertThat(String.join("\n", reported))
        .contains("warehouse.probe")
        .doesNotContain(URL_SECRET)
        .doesNotContain(PASSWORD_SECRET);
  }

  private static DbConnection connection(String url, String query) {
    return new DbConnection(
        "warehouse",
        url,
        Optional.of("postgres"),
        Optional.of(Secret.literal("sources.db.warehouse.password", PASSWORD_SECRET)),
        Map.of(),
        Dialect.ofUrl(url),
        0,
        1,
        2,
        List.of(TestDatabase.dump("probe", query)));
  }
}
