package dfe.fetcher.rest.construct;

import dfe.fetcher.rest.shape.FoldType;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An endpoint's constructs, as bound: none, or its {@code prelude}, its {@code construct.keyset}
 * and at most one second stage ({@code construct.lookup} or {@code construct.manifest}), or its
 * {@code construct.queue} instead of a keyset and a second stage. A value.
 *
 * @param prelude requests sent once per tick before the first page, in order
 * @param keyset one listing per key, when set
 * @param second what becomes of the listing's rows, when set: they are then not landed themselves
 * @param queue how the listing's rows are acknowledged once landed, when set
 * @param fold what every row of one listing (one key) is folded into, when set
 */
public record Constructs(
    List<Prelude> prelude,
    Optional<Keyset> keyset,
    Optional<SecondStage> second,
    Optional<Queue> queue,
    Optional<FoldType> fold) {

  public static final Constructs NONE =
      new Constructs(List.of(), Optional.empty(), Optional.empty(), Optional.empty());

  public Constructs {
    prelude = List.copyOf(prelude);
    Objects.requireNonNull(keyset, "keyset");
    Objects.requireNonNull(second, "second");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(fold, "fold");
  }

  /** Constructs without a fold. */
  public Constructs(
      List<Prelude> prelude,
      Optional<Keyset> keyset,
      Optional<SecondStage> second,
      Optional<Queue> queue) {
    this(prelude, keyset, second, queue, Optional.empty());
  }

  public boolean isEmpty() {
    return prelude.isEmpty()
        && keyset.isEmpty()
        && second.isEmpty()
        && queue.isEmpty()
        && fold.isEmpty();
  }

  /** Whether a manifest gives each item a checkpoint ({@code key} and {@code position}). */
  public boolean checkpointsItems() {
    return second
        .filter(Manifest.class::isInstance)
        .map(s -> ((Manifest) s).checkpoints())
        .orElse(false);
  }
}
