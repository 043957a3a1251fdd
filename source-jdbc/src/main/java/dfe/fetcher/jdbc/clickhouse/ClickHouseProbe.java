package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.ProbeOutcome;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code config-check --probe} for a ClickHouse connection: {@code SELECT 1}, sent once with the
 * connection's user, password, database and TLS settings, not retried, bounded by {@code
 * connect_timeout_secs} plus ten seconds. Ok when the server answers {@code 1}; refused when it
 * answers an error (a wrong password, an unknown user or database: ClickHouse's code is named);
 * unreachable when it does not answer (refused, timed out, a TLS handshake that fails).
 */
final class ClickHouseProbe {

  /**
   * ClickHouse's codes for credentials it does not take: 192 unknown user, 193 wrong password, 194
   * password required, 195 address not allowed, 516 authentication failed (servers after 18.16).
   */
  private static final Set<Integer> CREDENTIAL_CODES = Set.of(192, 193, 194, 195, 516);

  private static final Pattern CODE = Pattern.compile("^Code: (\\d+)\\.");

  private final ClickHouseConnection connection;

  ClickHouseProbe(ClickHouseConnection connection) {
    this.connection = connection;
  }

  ProbeOutcome send() throws InterruptedException {
    String described =
        "SELECT 1 on "
            + connection.url()
            + connection.user().map(user -> " as " + user).orElse(" as the default user")
            + connection.database().map(database -> " in " + database).orElse("");
    ClickHouseHttp http;
    try {
      http = new ClickHouseHttp(connection);
    } catch (SourceException e) {
      return new ProbeOutcome(ProbeOutcome.Verdict.UNREACHABLE, e.getMessage());
    }
    ClickHouseHttp.Answer answer;
    try {
      answer = http.ask("SELECT 1", Duration.ofSeconds(connection.connectTimeoutSecs() + 10L));
    } catch (SourceException e) {
      // The password's secret cannot be read: the message names the setting, not the secret.
      return new ProbeOutcome(ProbeOutcome.Verdict.REFUSED, described + ": " + e.getMessage());
    } catch (IOException e) {
      return new ProbeOutcome(
          ProbeOutcome.Verdict.UNREACHABLE, described + " failed: " + http.failure(e));
    }
    if (answer.status() == 200 && answer.body().strip().equals("1")) {
      return new ProbeOutcome(ProbeOutcome.Verdict.OK, described + " answered 1");
    }
    if (answer.status() == 200) {
      return new ProbeOutcome(
          ProbeOutcome.Verdict.REFUSED,
          described + " answered 200 but not 1: is " + connection.url() + " a ClickHouse server?");
    }
    String message = ServerMessage.of(answer.body());
    Matcher code = CODE.matcher(message);
    boolean credentials =
        answer.status() == 401
            || answer.status() == 403
            || code.find() && CREDENTIAL_CODES.contains(Integer.parseInt(code.group(1)));
    return new ProbeOutcome(
        ProbeOutcome.Verdict.REFUSED,
        described
            + " answered "
            + answer.status()
            + ": "
            + message
            + (credentials ? " (check the connection's user and password)" : ""));
  }
}
