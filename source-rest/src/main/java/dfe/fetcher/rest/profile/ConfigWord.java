package dfe.fetcher.rest.profile;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A word of a closed vocabulary a setting takes, as the profile writes it: {@code rows.decoder},
 * {@code paginate.type}, {@code auth.mode}, {@code window.format}. Implemented by enums, so a word
 * is found by its name and the words are listed, in declaration order, in the error that names an
 * unknown one.
 */
public interface ConfigWord {

  /** The word as written in the configuration, e.g. {@code json_array}. */
  String configName();

  /** The word of {@code vocabulary} written {@code name}; empty when there is none. */
  static <W extends Enum<W> & ConfigWord> Optional<W> named(Class<W> vocabulary, String name) {
    return Arrays.stream(vocabulary.getEnumConstants())
        .filter(word -> word.configName().equals(name))
        .findFirst();
  }

  /** Every word of {@code vocabulary}, as written, in declaration order. */
  static <W extends Enum<W> & ConfigWord> List<String> names(Class<W> vocabulary) {
    return Arrays.stream(vocabulary.getEnumConstants()).map(ConfigWord::configName).toList();
  }
}
