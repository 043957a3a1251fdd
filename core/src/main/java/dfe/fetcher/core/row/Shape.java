package dfe.fetcher.core.row;

/** How a unit is read: a whole store every tick, or what is new since the checkpoint. */
public enum Shape {
  /** The whole store (or file) every time, landed in the snapshot envelope. */
  DUMP,
  /** What is new since the checkpoint, landed as plain records. */
  TAIL
}
