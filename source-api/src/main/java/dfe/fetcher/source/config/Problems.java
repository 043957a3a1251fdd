package dfe.fetcher.source.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The problems found so far in one load; every step adds to it and carries on. */
public final class Problems {

  /** File problems by place, then environment problems by variable: the order a reader fixes. */
  private static final Comparator<ConfigProblem> READING_ORDER =
      Comparator.comparingInt(
              (ConfigProblem p) -> p.origin() instanceof ConfigOrigin.InFile ? 0 : 1)
          .thenComparingInt(p -> p.origin() instanceof ConfigOrigin.InFile f ? f.line() : 0)
          .thenComparingInt(p -> p.origin() instanceof ConfigOrigin.InFile f ? f.column() : 0)
          .thenComparing(
              p -> p.origin() instanceof ConfigOrigin.InEnvironment e ? e.variable() : "");

  private final List<ConfigProblem> problems = new ArrayList<>();

  /**
   * Adds a problem; one found again (the same place, path and message: a profile's endpoint bound
   * under several unit names) is kept once.
   */
  public void add(ConfigOrigin origin, String path, String message) {
    ConfigProblem problem = new ConfigProblem(origin, path, message);
    if (!problems.contains(problem)) {
      problems.add(problem);
    }
  }

  public boolean isEmpty() {
    return problems.isEmpty();
  }

  /** Every problem in reading order; ties keep the order they were found in. */
  public List<ConfigProblem> inReadingOrder() {
    List<ConfigProblem> sorted = new ArrayList<>(problems);
    sorted.sort(READING_ORDER);
    return sorted;
  }
}
