package dfe.fetcher.core.envelope;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One message of a dump: begin, a row, an oversize stub, or end. Every frame carries a {@link
 * FrameHead}; the kind-specific fields follow it on the wire. {@link FrameCodec} writes and parses
 * the JSON form.
 */
public sealed interface Frame {

  FrameHead head();

  FrameKind kind();

  /** First frame of a dump; {@code total} is the store's own count when the source knows it. */
  record Begin(FrameHead head, OptionalLong total) implements Frame {
    public Begin {
      Objects.requireNonNull(head, "head");
      Objects.requireNonNull(total, "total");
    }

    @Override
    public FrameKind kind() {
      return FrameKind.BEGIN;
    }
  }

  /** One provider record, carried verbatim under {@code record}. */
  record Row(FrameHead head, RawRecord record) implements Frame {
    public Row {
      Objects.requireNonNull(head, "head");
      Objects.requireNonNull(record, "record");
    }

    @Override
    public FrameKind kind() {
      return FrameKind.ROW;
    }
  }

  /**
   * A record too large to send, replaced by its size and, when the unit names one, its identity.
   */
  record Oversize(FrameHead head, long bytes, Optional<String> rowKey) implements Frame {
    public Oversize {
      Objects.requireNonNull(head, "head");
      Objects.requireNonNull(rowKey, "rowKey");
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must not be negative, was " + bytes);
      }
    }

    @Override
    public FrameKind kind() {
      return FrameKind.OVERSIZE;
    }
  }

  /** Last frame of a dump: rows and stubs emitted, and when the dump finished. */
  record End(FrameHead head, long rowCount, String completedAt) implements Frame {
    public End {
      Objects.requireNonNull(head, "head");
      Objects.requireNonNull(completedAt, "completedAt");
      if (rowCount < 0) {
        throw new IllegalArgumentException("row_count must not be negative, was " + rowCount);
      }
    }

    @Override
    public FrameKind kind() {
      return FrameKind.END;
    }
  }
}
