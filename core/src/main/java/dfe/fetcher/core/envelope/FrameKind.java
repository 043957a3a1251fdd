package dfe.fetcher.core.envelope;

import java.util.Optional;

/** The four kinds of frame a dump travels in, with the name each has on the wire. */
public enum FrameKind {
  BEGIN("begin"),
  ROW("row"),
  OVERSIZE("oversize"),
  END("end");

  private final String wireName;

  FrameKind(String wireName) {
    this.wireName = wireName;
  }

  /** The value of the frame's {@code kind} field. */
  public String wireName() {
    return wireName;
  }

  /** The kind whose wire name is {@code name}, if there is one. */
  public static Optional<FrameKind> fromWireName(String name) {
    for (FrameKind kind : values()) {
      if (kind.wireName.equals(name)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
