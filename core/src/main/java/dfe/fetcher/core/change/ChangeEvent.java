package dfe.fetcher.core.change;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * One key's change between two snapshots. Its JSON form, one object per line on {@code snapshots
 * diff}'s output and one message value on a changes topic, is {@code
 * {"op":"add|remove|change","key":KEY,"before":RECORD|null,"after":RECORD|null}}, the key and
 * records embedded as the bytes they were (not re-serialised).
 *
 * @param kind add, remove or change
 * @param key the key as compact JSON
 * @param before the record in the earlier snapshot; empty for an add
 * @param after the record in the later snapshot; empty for a remove
 */
public record ChangeEvent(
    ChangeKind kind, byte[] key, Optional<byte[]> before, Optional<byte[]> after) {

  private static final byte[] OP = bytes("{\"op\":\"");
  private static final byte[] KEY = bytes("\",\"key\":");
  private static final byte[] BEFORE = bytes(",\"before\":");
  private static final byte[] AFTER = bytes(",\"after\":");
  private static final byte[] NULL = bytes("null");

  public ChangeEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    if (before.isPresent() != (kind != ChangeKind.ADD)
        || after.isPresent() != (kind != ChangeKind.REMOVE)) {
      throw new IllegalArgumentException(
          "a "
              + kind.wireName()
              + " event needs "
              + needs(kind)
              + ", got before and after "
              + before.isPresent()
              + "/"
              + after.isPresent());
    }
  }

  public static ChangeEvent added(byte[] key, byte[] after) {
    return new ChangeEvent(ChangeKind.ADD, key, Optional.empty(), Optional.of(after));
  }

  public static ChangeEvent removed(byte[] key, byte[] before) {
    return new ChangeEvent(ChangeKind.REMOVE, key, Optional.of(before), Optional.empty());
  }

  public static ChangeEvent changed(byte[] key, byte[] before, byte[] after) {
    return new ChangeEvent(ChangeKind.CHANGE, key, Optional.of(before), Optional.of(after));
  }

  /** The event's JSON object, UTF-8, without a line end. */
  public byte[] toJson() {
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(
            64
                + key.length
                + before.map(b -> b.length).orElse(4)
                + after.map(a -> a.length).orElse(4));
    out.writeBytes(OP);
    out.writeBytes(bytes(kind.wireName()));
    out.writeBytes(KEY);
    out.writeBytes(key);
    out.writeBytes(BEFORE);
    out.writeBytes(before.orElse(NULL));
    out.writeBytes(AFTER);
    out.writeBytes(after.orElse(NULL));
    out.write('}');
    return out.toByteArray();
  }

  private static String needs(ChangeKind kind) {
    return switch (kind) {
      case ADD -> "an after and no before";
      case REMOVE -> "a before and no after";
      case CHANGE -> "a before and an after";
    };
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
