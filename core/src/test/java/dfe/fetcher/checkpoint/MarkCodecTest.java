package dfe.fetcher.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.row.FileMark;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkCodecTest {

  @Test
  void aFileMarkWithItsCommittedFilesReadsBackEqual() throws Exception {
    FileMark mark =
        new FileMark(
            Instant.parse("2026-05-01T12:00:00.123456789Z"),
            "/d/a.ndjson",
            List.of(
                new FileMark.CommittedFile(
                    "/d/a.ndjson",
                    "(dev=803,ino=12)",
                    120,
                    Instant.parse("2026-04-30T00:00:00Z"),
                    Instant.parse("2026-05-01T12:00:00.123456789Z"))));

    assertThat(MarkCodec.decode(MarkCodec.encode(mark, Instant.EPOCH))).isEqualTo(mark);
  }

  @Test
  void aVersionOneFileMarkCoversNoFile() throws Exception {
    byte[] v1 =
        ("{\"version\":1,\"mark\":{\"kind\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\","
                + "\"path\":\"/d/a.ndjson\"}}")
            .getBytes(StandardCharsets.UTF_8);

    assertThat(MarkCodec.decode(v1))
        .isEqualTo(new FileMark(FileMark.EMPTY_WATERMARK, "/d/a.ndjson", List.of()));
  }

  @Test
  void theVersionlessFileCursorCoversNoFile() throws Exception {
    byte[] legacy =
        ("{\"mark\":{\"type\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\","
                + "\"path\":\"/d/a.ndjson\"}}")
            .getBytes(StandardCharsets.UTF_8);

    assertThat(MarkCodec.decode(legacy))
        .isEqualTo(new FileMark(FileMark.EMPTY_WATERMARK, "/d/a.ndjson", List.of()));
  }
}
