package dfe.fetcher.runtime.cursor;

import dfe.fetcher.core.row.CursorTokenMark;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.FieldCursorMark;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.FileTailMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import java.util.stream.Collectors;

/**
 * A mark in a few words, for {@code checkpoints list} and {@code /status}: where the unit has got
 * to. An API's cursor token may be a credential, so it is described by its length only.
 */
public final class MarkDescription {

  private MarkDescription() {}

  public static String of(Mark mark) {
    return switch (mark.kind()) {
      case FILE -> file((FileMark) mark);
      case KEYSET ->
          "after key ("
              + ((KeysetMark) mark)
                  .values().stream().map(KeysetMark.Value::text).collect(Collectors.joining(", "))
              + ")";
      case WINDOW ->
          "windows read up to "
              + ((WindowMark) mark).end()
              + ((WindowMark) mark)
                  .after()
                  .map(
                      item ->
                          ", and the next one up to item " + item.key() + " at " + item.position())
                  .orElse("");
      case CURSOR_TOKEN ->
          "an API cursor token of "
              + ((CursorTokenMark) mark).token().length()
              + " characters (not shown)";
      case DUMP_RESUME -> dumpResume((DumpResumeMark) mark);
      case FILE_TAIL -> fileTail((FileTailMark) mark);
      case FIELD_CURSOR ->
          "records landed up to "
              + ((FieldCursorMark) mark).greatest()
              + " at the cursor field, "
              + ((FieldCursorMark) mark).near().size()
              + " of them within the lookback remembered";
    };
  }

  private static String dumpResume(DumpResumeMark mark) {
    if (mark.ended()) {
      return "snapshot " + mark.snapshotId() + " ended with " + mark.nextSeq() + " rows";
    }
    return "snapshot "
        + mark.snapshotId()
        + " open, next seq "
        + mark.nextSeq()
        + mark.lastKey().map(key -> ", " + of(key)).orElse("");
  }

  private static String fileTail(FileTailMark mark) {
    int files = mark.files().size();
    long bytes = mark.files().stream().mapToLong(FileTailMark.TailedFile::offset).sum();
    return files + (files == 1 ? " file" : " files") + " followed, " + bytes + " bytes read in all";
  }

  private static String file(FileMark mark) {
    if (mark.watermark().equals(FileMark.EMPTY_WATERMARK) && mark.committed().isEmpty()) {
      return "covers no file (written by an earlier build): every file is read again";
    }
    int near = mark.committed().size();
    return "last "
        + mark.path()
        + ", watermark "
        + mark.watermark()
        + ", "
        + near
        + (near == 1 ? " file" : " files")
        + " committed near it";
  }
}
