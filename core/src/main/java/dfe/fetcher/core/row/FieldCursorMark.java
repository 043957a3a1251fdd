package dfe.fetcher.core.row;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A REST unit's record-field cursor ({@code window.cursor_at}): the greatest time the unit has
 * landed at that field of its records, and the records it landed whose time lies within the
 * cursor's lookback of it. The next tick asks from {@code greatest - lookback} and lands only the
 * records past {@code greatest} or within the lookback and not among {@code near}: a record listed
 * again is not landed again.
 *
 * @param greatest the greatest time at the field of a record landed
 * @param near the records landed with a time at or after {@code greatest - lookback}, oldest first
 */
public record FieldCursorMark(Instant greatest, List<Landed> near) implements Mark {

  /** A record landed: its identity (its {@code row_key}, or a digest of it) and its time. */
  public record Landed(String key, Instant at) {
    public Landed {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(at, "at");
    }
  }

  public FieldCursorMark {
    Objects.requireNonNull(greatest, "greatest");
    near = List.copyOf(near);
  }

  @Override
  public Kind kind() {
    return Kind.FIELD_CURSOR;
  }
}
