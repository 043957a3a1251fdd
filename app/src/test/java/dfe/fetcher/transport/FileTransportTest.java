package dfe.fetcher.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTransportTest {

  @TempDir Path directory;

  private static OutboundRecord record(String topic, String value) {
    return new OutboundRecord(
        topic, Optional.empty(), value.getBytes(StandardCharsets.UTF_8), List.of());
  }

  @Test
  void eachTopicLandsInItsOwnFileOneValuePerLineAppended() throws Exception {
    FileTransport transport = new FileTransport(directory.resolve("landing"));
    transport.send(List.of(record("a_land", "{\"n\":1}"), record("b_land", "[2]"))).get();
    transport.send(List.of(record("a_land", "{\"n\":3}"))).get();
    transport.close();

    assertThat(Files.readAllLines(directory.resolve("landing/a_land.ndjson")))
        .containsExactly("{\"n\":1}", "{\"n\":3}");
    assertThat(Files.readAllLines(directory.resolve("landing/b_land.ndjson")))
        .containsExactly("[2]");
  }

  @Test
  void aBatchIsAcknowledgedOnlyOnceWritten() throws Exception {
    FileTransport transport = new FileTransport(directory);
    CompletableFuture<SendResult> sent = transport.send(List.of(record("t", "1")));
    assertThat(sent).isCompletedWithValue(SendResult.ALL_ACKNOWLEDGED);
    assertThat(Files.readString(directory.resolve("t.ndjson"))).isEqualTo("1\n");
  }

  @Test
  void aBatchThatCannotBeWrittenFailsNamingTheTopicAndFile() throws IOException {
    Path blocked = directory.resolve("blocked");
    Files.writeString(blocked, "a file where the landing directory should be");
    FileTransport transport = new FileTransport(blocked);

    CompletableFuture<SendResult> sent = transport.send(List.of(record("t", "1")));

    assertThat(sent)
        .failsWithin(java.time.Duration.ZERO)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause()
        .isInstanceOf(TransportException.class)
        .withMessageContaining("writing topic t to " + blocked.resolve("t.ndjson"));
    assertThat(transport.isReady()).isFalse();
  }

  @Test
  void isReadyWhenTheDirectoryIsWritableOrCanBeCreated() {
    assertThat(new FileTransport(directory.resolve("not/yet/there")).isReady()).isTrue();
  }

  @Test
  void aPartialLastLineLeftByACrashIsCutOffBeforeTheNextAppend() throws Exception {
    Files.writeString(directory.resolve("t.ndjson"), "{\"n\":1}\n{\"n\":2}\n{\"n\":");
    FileTransport transport = new FileTransport(directory);

    transport.send(List.of(record("t", "{\"n\":3}"))).get();
    transport.close();

    assertThat(Files.readAllLines(directory.resolve("t.ndjson")))
        .containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
  }
}
