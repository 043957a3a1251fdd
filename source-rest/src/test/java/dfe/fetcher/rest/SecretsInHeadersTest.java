package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A secret that an HTTP header cannot carry is refused naming its setting, and neither it nor the
 * JDK's "invalid header value" text (which quotes the header) reaches a log line or an error.
 */
class SecretsInHeadersTest {

  private static final String TOKEN = "tok-SECRET-42";

  @TempDir Path directory;
  private ApiServer server;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger fetcherLogger = (Logger) LoggerFactory.getLogger("dfe.fetcher");
  private Level fetcherLevel;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs.start();
    fetcherLevel = fetcherLogger.getLevel();
    fetcherLogger.setLevel(Level.DEBUG);
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(logs);
  }

  @AfterEach
  void stop() {
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    fetcherLogger.setLevel(fetcherLevel);
    server.close();
  }

  private RestConnection withAuth(String auth, String headers) {
    return RestFixture.connection(
        """
        topic: lab
        auth: %s
        vars: {note: "%s"}
        profile:
          base_url: "%s"
          headers: {X-Note: "{{ vars.note }}"}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
        """
            .formatted(auth, headers, server.url()),
        Map.of("LAB_TOKEN", TOKEN));
  }

  private Path secretFile(String content) throws Exception {
    Path file = directory.resolve("token");
    Files.write(file, content.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  /** Reads one tick and returns every text it produced: the abort reason or thrown messages. */
  private List<String> failureTexts(RestConnection connection) {
    List<String> texts = new ArrayList<>();
    try {
      RecordingSink sink = RestFixture.read(connection, "assets");
      assertThat(sink.shape()).containsExactly("begin", "abort");
      texts.add(sink.abortReason().orElseThrow());
    } catch (Exception e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        texts.add(String.valueOf(t.getMessage()));
        texts.add(t.toString());
      }
    }
    return texts;
  }

  private List<String> loggedTexts() {
    List<String> texts = new ArrayList<>();
    for (ILoggingEvent event : logs.list) {
      texts.add(event.getFormattedMessage());
      if (event.getThrowableProxy() != null) {
        texts.add(event.getThrowableProxy().getMessage());
      }
    }
    return texts;
  }

  @Test
  void aFileSecretEndingInALineBreakIsSentWithoutIt() throws Exception {
    server.on("/assets", ok("[{\"id\":1}]"));
    Path file = secretFile(TOKEN + "\r\n");

    RecordingSink sink =
        RestFixture.read(withAuth("{mode: bearer, token: 'file:" + file + "'}", "n"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer " + TOKEN);
  }

  @Test
  void aFileSecretStartingWithAByteOrderMarkIsRefusedNamingTheSettingNotTheValue()
      throws Exception {
    server.on("/assets", ok("[{\"id\":1}]"));
    Path file = secretFile("\uFEFF" + TOKEN + "\n");

    List<String> texts = failureTexts(withAuth("{mode: bearer, token: 'file:" + file + "'}", "n"));

    assertThat(texts.get(0))
        .isEqualTo(
            "lab.assets: sources.rest.lab.auth.token: the secret holds U+FEFF (a byte-order"
                + " mark) at character 1, which an HTTP header cannot carry; remove it");
    assertThat(texts).noneMatch(text -> text.contains(TOKEN));
    assertThat(loggedTexts()).noneMatch(text -> text.contains(TOKEN));
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aSecretWithAControlCharacterInsideIsRefusedWithoutQuotingIt() throws Exception {
    server.on("/assets", ok("[]"));
    Path file = secretFile("tok-SECRET\n-42");

    List<String> texts =
        failureTexts(
            withAuth(
                "{mode: api_key, key: 'file:" + file + "', header: X-Key, prefix: 'K '}", "n"));

    assertThat(texts.get(0))
        .startsWith("lab.assets: sources.rest.lab.auth.key: the secret holds U+000A")
        .doesNotContain("tok-SECRET");
    assertThat(texts).noneMatch(text -> text.contains("tok-SECRET"));
    assertThat(loggedTexts()).noneMatch(text -> text.contains("tok-SECRET"));
  }

  @Test
  void anAccessTokenAHeaderCannotCarryFailsNamingTheTokenEndpointNotTheToken() throws Exception {
    server.on("/oauth/token", ok("{\"access_token\":\"at-SECRET\\u0001\",\"expires_in\":60}"));
    server.on("/assets", ok("[]"));

    List<String> texts =
        failureTexts(
            withAuth(
                "{mode: oauth2_client_credentials, token_url: '"
                    + server.url()
                    + "/oauth/token', client_id: app, client_secret: env:LAB_TOKEN}",
                "n"));

    assertThat(texts.get(0))
        .isEqualTo(
            "lab.assets: the token endpoint "
                + server.url()
                + "/oauth/token answered an access_token an HTTP header cannot carry");
    assertThat(texts).noneMatch(text -> text.contains("at-SECRET"));
    assertThat(loggedTexts()).noneMatch(text -> text.contains("at-SECRET"));
  }

  @Test
  void aHeaderValueTheRequestCannotCarryFailsNamingTheHeaderNotItsValue() throws Exception {
    server.on("/assets", ok("[]"));

    List<String> texts =
        failureTexts(withAuth("{mode: bearer, token: env:LAB_TOKEN}", "note-SECRET\\u0007"));

    assertThat(texts.get(0))
        .isEqualTo(
            "lab.assets: GET "
                + server.url()
                + "/assets cannot be sent: header X-Note holds a character an HTTP header"
                + " cannot carry");
    assertThat(texts).noneMatch(text -> text.contains("SECRET"));
    assertThat(loggedTexts()).noneMatch(text -> text.contains("SECRET"));
  }
}
