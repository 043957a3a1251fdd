package dfe.fetcher.source.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The value of a secret setting, given in the configuration as a spec:
 *
 * <ul>
 *   <li>{@code env:NAME}: the environment variable {@code NAME};
 *   <li>{@code file:PATH}: the contents of the file, without trailing line breaks (a relative path
 *       resolves against the configuration file's directory);
 *   <li>{@code literal:VALUE}: {@code VALUE} as written (for a value that itself starts with {@code
 *       env:} or {@code file:});
 *   <li>anything else: the literal value.
 * </ul>
 *
 * <p>The value is resolved only when {@link #reveal()} is called, every time it is called, so a
 * rotated file is read afresh. {@link #toString()} is {@code ***}; {@link #describe()} names where
 * the value comes from and is safe to print. No message this class produces holds the value.
 */
public final class Secret {

  /** Where the value comes from. */
  public enum Kind {
    ENVIRONMENT,
    FILE,
    LITERAL
  }

  private static final String REDACTED = "***";

  private final Kind kind;
  private final String setting;
  private final String reference;
  private final Map<String, String> environment;

  private Secret(Kind kind, String setting, String reference, Map<String, String> environment) {
    this.kind = kind;
    this.setting = setting;
    this.reference = reference;
    this.environment = environment;
  }

  /**
   * Reads {@code spec} for the setting at {@code setting} (a config path, used in error messages).
   *
   * @param environment where {@code env:} names are looked up when the secret is revealed
   * @param baseDirectory what a relative {@code file:} path resolves against
   * @throws IllegalArgumentException when an {@code env:} or {@code file:} spec names nothing
   *     usable; the message holds no part of a literal
   */
  public static Secret parse(
      String spec, String setting, Map<String, String> environment, Path baseDirectory) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(setting, "setting");
    Objects.requireNonNull(environment, "environment");
    if (spec.startsWith("env:")) {
      String name = spec.substring("env:".length());
      if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
        throw new IllegalArgumentException(
            "env: needs an environment variable name (letters, digits, '_'), e.g. env:KAFKA_PASSWORD");
      }
      return new Secret(Kind.ENVIRONMENT, setting, name, environment);
    }
    if (spec.startsWith("file:")) {
      String file = spec.substring("file:".length());
      if (file.isBlank()) {
        throw new IllegalArgumentException("file: needs a path, e.g. file:/run/secrets/kafka");
      }
      try {
        return new Secret(
            Kind.FILE, setting, baseDirectory.resolve(file).normalize().toString(), environment);
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException("file: names an invalid path: " + e.getReason(), e);
      }
    }
    String literal = spec.startsWith("literal:") ? spec.substring("literal:".length()) : spec;
    return new Secret(Kind.LITERAL, setting, literal, Map.of());
  }

  /** A literal secret, for code that builds a configuration without a file. */
  public static Secret literal(String setting, String value) {
    return new Secret(Kind.LITERAL, setting, Objects.requireNonNull(value, "value"), Map.of());
  }

  public Kind kind() {
    return kind;
  }

  /** The config path of the setting this secret is the value of. */
  public String setting() {
    return setting;
  }

  /**
   * The value, resolved now.
   *
   * @throws SecretUnavailableException when the variable is not set or the file cannot be read; the
   *     message names the variable or file and the setting, never a value
   */
  public String reveal() {
    return switch (kind) {
      case LITERAL -> reference;
      case ENVIRONMENT -> {
        String value = environment.get(reference);
        if (value == null) {
          throw new SecretUnavailableException(
              setting + ": environment variable " + reference + " is not set");
        }
        yield value;
      }
      case FILE -> {
        try {
          yield stripTrailingLineBreaks(
              Files.readString(Path.of(reference), StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw new SecretUnavailableException(
              setting + ": cannot read secret file " + reference + ": " + reason(e), e);
        }
      }
    };
  }

  /**
   * Why {@link #reveal()} would fail now (the variable is unset, the file unreadable), or empty.
   * Reads the file but returns nothing of it.
   */
  public Optional<String> unavailability() {
    try {
      reveal();
      return Optional.empty();
    } catch (SecretUnavailableException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** {@code env:NAME}, {@code file:/absolute/path} or {@code literal}: safe to print. */
  public String describe() {
    return switch (kind) {
      case ENVIRONMENT -> "env:" + reference;
      case FILE -> "file:" + reference;
      case LITERAL -> "literal";
    };
  }

  /** The kind of failure only: an exception's message could quote what was read. */
  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getClass().getSimpleName();
  }

  private static String stripTrailingLineBreaks(String text) {
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return text.substring(0, end);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret that
        && kind == that.kind
        && setting.equals(that.setting)
        && reference.equals(that.reference);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, setting, reference);
  }

  /** Always {@code ***}: a secret must never reach a log line or a printed config. */
  @Override
  public String toString() {
    return REDACTED;
  }
}
