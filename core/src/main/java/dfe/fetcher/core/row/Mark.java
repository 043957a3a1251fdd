package dfe.fetcher.core.row;

/**
 * Where a unit has got to: the small value a source hands the driver and the driver commits as the
 * unit's checkpoint once the transport has acknowledged everything before it. Sources produce
 * marks; only the driver folds and commits them, through {@link MarkCodec}.
 *
 * <p>The vocabulary is closed: a file dump's item ({@link FileMark}), a database tail's key tuple
 * ({@link KeysetMark}), a REST window's end ({@link WindowMark}) and an API's cursor token ({@link
 * CursorTokenMark}), a resumable database dump's snapshot and key ({@link DumpResumeMark}) and a
 * file tail's offset per file ({@link FileTailMark}) and a REST record-field cursor ({@link
 * FieldCursorMark}). Each unit reads one {@link Kind}; a checkpoint of another kind is reported and
 * treated as none.
 */
public sealed interface Mark
    permits FileMark,
        KeysetMark,
        WindowMark,
        CursorTokenMark,
        DumpResumeMark,
        FileTailMark,
        FieldCursorMark {

  Kind kind();

  /** The kinds of mark, each with the name the cursor codec writes. */
  enum Kind {
    FILE("file"),
    KEYSET("keyset"),
    WINDOW("window"),
    CURSOR_TOKEN("cursor_token"),
    DUMP_RESUME("dump_resume"),
    FILE_TAIL("file_tail"),
    FIELD_CURSOR("field_cursor");

    private final String wireName;

    Kind(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }
}
