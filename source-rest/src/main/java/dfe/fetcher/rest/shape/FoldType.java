package dfe.fetcher.rest.shape;

import dfe.fetcher.rest.profile.ConfigWord;
import java.util.List;
import java.util.Optional;

/**
 * The folds ({@code construct.fold}), registered here once: a new fold is one {@link Fold} class
 * and one constant.
 */
public enum FoldType implements ConfigWord {
  /**
   * One Go module's {@code .info} documents become one row: its versions, their count, the last.
   */
  GO_MODULE_AGGREGATE("go_module_aggregate");

  private final String configName;

  FoldType(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }

  Fold fold() {
    return switch (this) {
      case GO_MODULE_AGGREGATE -> new GoModuleAggregate();
    };
  }

  /**
   * The rows of one listing, held until it is read to its end and folded then.
   *
   * @param maxBytes the most the held rows may be together ({@code max_page_bytes}): what a fold
   *     builds from them is one row, which may be no longer either
   */
  public FoldedRows rows(long maxBytes) {
    return new FoldedRows(fold(), maxBytes);
  }

  public static Optional<FoldType> named(String name) {
    return ConfigWord.named(FoldType.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(FoldType.class);
  }
}
