package dfe.fetcher.rest.profile;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * A word that picks what a section is, with the keys that variant takes beside the word: {@code
 * auth.mode} and its modes, {@code paginate.type} and its pagers. Implemented by the enums that
 * register the variants, so the section's keys are listed from the registry, never by hand.
 */
public interface SectionVariant extends ConfigWord {

  /** The keys this variant takes under its section, beside the word that names it. */
  List<String> keys();

  /**
   * Every key the section takes: {@code selector} (the key that holds the word), then each
   * variant's in the order registered, each once.
   */
  static <V extends Enum<V> & SectionVariant> List<String> sectionKeys(
      Class<V> variants, String selector) {
    return Stream.concat(
            Stream.of(selector),
            Arrays.stream(variants.getEnumConstants()).flatMap(variant -> variant.keys().stream()))
        .distinct()
        .toList();
  }
}
