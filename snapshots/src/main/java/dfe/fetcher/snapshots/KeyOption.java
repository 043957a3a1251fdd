package dfe.fetcher.snapshots;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --key}: the JSON pointers of a row's identity, as {@code apply} and {@code diff} take. */
final class KeyOption {

  @Option(
      names = "--key",
      required = true,
      paramLabel = "POINTER",
      description = "JSON pointer of the row identity, e.g. /id; repeat for a composite key.")
  private List<String> pointers = new ArrayList<>();

  /** The pointers in the order given: the key's components in that order. */
  List<String> pointers() {
    return pointers;
  }
}
