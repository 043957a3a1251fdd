package dfe.fetcher.source.config;

import java.util.regex.Pattern;

/**
 * The rule for instance, connection and unit names: they end up in store names ({@code
 * <connection>.<unit>}), topic names and checkpoint file names, so they hold only letters, digits,
 * {@code _} and {@code -}, and never {@code .}.
 */
public final class Names {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private Names() {}

  /** Reports {@code name} at {@code origin} and {@code at} when it breaks the rule. */
  public static void check(String name, ConfigOrigin origin, String at, Problems problems) {
    if (name.isEmpty()) {
      problems.add(origin, at, "must not be empty");
    } else if (name.contains(".")) {
      problems.add(origin, at, "must not contain '.'");
    } else if (!NAME.matcher(name).matches()) {
      problems.add(origin, at, "may hold only letters, digits, '_' and '-'");
    }
  }
}
