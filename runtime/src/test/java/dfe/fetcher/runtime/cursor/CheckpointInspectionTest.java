package dfe.fetcher.runtime.cursor;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.CursorTokenMark;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.WindowMark;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileCursorStore#inspect} and {@link FileCursorStore#remove}, for an operator. */
class CheckpointInspectionTest {

  private static final Instant AT = Instant.parse("2026-05-01T12:00:00Z");

  @TempDir Path directory;

  private FileCursorStore storeHere() {
    return new FileCursorStore(directory, Clock.fixed(AT, ZoneOffset.UTC));
  }

  @Test
  void aMissingFileIsNoneAndAnUnreadableOneSaysWhyWithoutQuotingIt() throws Exception {
    FileCursorStore cursors = storeHere();
    assertThat(cursors.inspect("t.c.u")).isEqualTo(new StoredCheckpoint.None());

    Files.writeString(cursors.fileOf("t.c.u"), "{\"secret-ish\": ");
    StoredCheckpoint unreadable = cursors.inspect("t.c.u");

    assertThat(unreadable.kind()).isEqualTo("unreadable");
    assertThat(unreadable.description()).contains("not JSON").doesNotContain("secret-ish");
  }

  @Test
  void aFileMarkIsDescribedByItsLastFileWatermarkAndEntries() throws Exception {
    FileCursorStore cursors = storeHere();
    Instant changed = Instant.parse("2026-04-30T10:00:00.5Z");
    cursors.commit(
        "t.c.u",
        new FileMark(
            changed,
            "/d/b.ndjson",
            List.of(
                new FileMark.CommittedFile("/d/b.ndjson", "(dev=1,ino=2)", 10, changed, changed))));

    StoredCheckpoint held = cursors.inspect("t.c.u");

    assertThat(held.kind()).isEqualTo("file");
    assertThat(held.description())
        .isEqualTo(
            "last /d/b.ndjson, watermark 2026-04-30T10:00:00.500Z, 1 file committed near it");
  }

  @Test
  void otherMarksAreDescribedAndATokenIsNeverShown() throws Exception {
    FileCursorStore cursors = storeHere();
    cursors.commit(
        "k",
        KeysetMark.of(
            new KeysetMark.IntegerValue(42), new KeysetMark.DecimalValue(new BigDecimal("1.50"))));
    cursors.commit("w", new WindowMark(AT));
    cursors.commit("c", new CursorTokenMark("tok-hunter2"));

    assertThat(cursors.inspect("k").description()).isEqualTo("after key (42, 1.50)");
    assertThat(cursors.inspect("w").description())
        .isEqualTo("windows read up to 2026-05-01T12:00:00Z");
    assertThat(cursors.inspect("c").kind()).isEqualTo("cursor_token");
    assertThat(cursors.inspect("c").description())
        .isEqualTo("an API cursor token of 11 characters (not shown)")
        .doesNotContain("hunter2");
  }

  @Test
  void removeDeletesTheFileAndReturnsWhatItHeldSoTheNextLoadStartsOver() throws Exception {
    FileCursorStore cursors = storeHere();
    cursors.commit("t.c.u", new WindowMark(AT));

    StoredCheckpoint removed = cursors.remove("t.c.u");

    assertThat(removed).isInstanceOf(StoredCheckpoint.Held.class);
    assertThat(removed.kind()).isEqualTo("window");
    assertThat(cursors.fileOf("t.c.u")).doesNotExist();
    assertThat(cursors.load("t.c.u")).isEmpty();
    assertThat(cursors.remove("t.c.u")).isEqualTo(new StoredCheckpoint.None());
  }
}
