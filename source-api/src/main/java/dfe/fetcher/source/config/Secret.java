package dfe.fetcher.source.config;

import dfe.fetcher.source.config.vault.VaultReference;
import dfe.fetcher.source.config.vault.VaultSecrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
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
 *   <li>{@code vault:MOUNT/PATH#FIELD}: the field of a HashiCorp Vault or OpenBao KV version 2
 *       secret, read through {@link VaultSecrets} (which caches it for its lease or time to live);
 *   <li>{@code literal:VALUE}: {@code VALUE} as written (for a value that itself starts with {@code
 *       env:}, {@code file:} or {@code vault:});
 *   <li>anything else: the literal value.
 * </ul>
 *
 * <p>The value is resolved only when {@link #reveal()} is called, every time it is called, so a
 * rotated file is read afresh. {@link #toString()} is {@code ***}; {@link #describe()} names where
 * the value comes from and is safe to print. No message this class produces holds the value.
 *
 * <p>A secret bound for a use that cannot carry every character ({@link Characters#HTTP_HEADER}) is
 * checked on every reveal, so a byte-order mark or a control character fails with a message naming
 * the setting and the character instead of reaching, say, an HTTP client whose error would quote
 * the header it was given.
 */
public final class Secret {

  /** Where the value comes from. */
  public enum Kind {
    ENVIRONMENT,
    FILE,
    VAULT,
    LITERAL
  }

  /** What a revealed value may hold, for the use it is bound for. */
  public enum Characters {
    /** Anything: the value is encoded before it travels (a password inside HTTP Basic, JDBC). */
    ANY(""),
    /**
     * Printable ASCII, spaces and tabs: a value sent as it is in an HTTP header (a bearer token, an
     * API key).
     */
    HTTP_HEADER("an HTTP header");

    private final String carrier;

    Characters(String carrier) {
      this.carrier = carrier;
    }

    /** The first character at odds with this use, as its index, or -1 when there is none. */
    int firstRefused(String value) {
      if (this == ANY) {
        return -1;
      }
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c != '\t' && (c < 0x20 || c > 0x7E)) {
          return i;
        }
      }
      return -1;
    }
  }

  private static final String REDACTED = "***";

  private final Kind kind;
  private final String setting;
  private final String reference;
  private final Map<String, String> environment;
  private final Characters characters;
  private final VaultSecrets vault;

  private Secret(
      Kind kind,
      String setting,
      String reference,
      Map<String, String> environment,
      Characters characters,
      VaultSecrets vault) {
    this.kind = kind;
    this.setting = setting;
    this.reference = reference;
    this.environment = environment;
    this.characters = characters;
    this.vault = vault;
  }

  private Secret(Kind kind, String setting, String reference, Map<String, String> environment) {
    this(kind, setting, reference, environment, Characters.ANY, null);
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
    return parse(spec, setting, environment, baseDirectory, new VaultSecrets(environment));
  }

  /**
   * As {@link #parse(String, String, Map, Path)}, a {@code vault:} spec read through {@code vault}
   * (one client, login and cache shared by every secret of a configuration).
   */
  public static Secret parse(
      String spec,
      String setting,
      Map<String, String> environment,
      Path baseDirectory,
      VaultSecrets vault) {
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
    if (spec.startsWith("vault:")) {
      VaultReference reference = VaultReference.parse(spec.substring("vault:".length()));
      return new Secret(
          Kind.VAULT,
          setting,
          reference.toString(),
          environment,
          Characters.ANY,
          Objects.requireNonNull(vault, "vault"));
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

  /**
   * This secret, its revealed value checked for {@code characters} every time: one that holds a
   * character the use cannot carry fails {@link #reveal()} naming the setting and the character.
   */
  public Secret requiring(Characters characters) {
    return new Secret(
        kind,
        setting,
        reference,
        environment,
        Objects.requireNonNull(characters, "characters"),
        vault);
  }

  public Characters characters() {
    return characters;
  }

  /** The config path of the setting this secret is the value of. */
  public String setting() {
    return setting;
  }

  /**
   * The value, resolved now.
   *
   * @throws SecretUnavailableException when the variable is not set, the file cannot be read, or
   *     the value holds a character its use cannot carry ({@link #requiring}); the message names
   *     the variable or file, or the character's code point and place, and the setting, never the
   *     value
   */
  public String reveal() {
    String value = resolve();
    int refused = characters.firstRefused(value);
    if (refused >= 0) {
      throw new SecretUnavailableException(
          setting
              + ": the secret holds "
              + describe(value.charAt(refused))
              + " at character "
              + (refused + 1)
              + ", which "
              + characters.carrier
              + " cannot carry; remove it");
    }
    return value;
  }

  /** A code point and, for the usual suspects, what it is: never more of the value. */
  private static String describe(char c) {
    String code = String.format(Locale.ROOT, "U+%04X", (int) c);
    return switch (c) {
      case '\uFEFF' -> code + " (a byte-order mark)";
      case '\n' -> code + " (a line break)";
      case '\r' -> code + " (a carriage return)";
      default -> code + (c < 0x20 || c == 0x7F ? " (a control character)" : " (not ASCII)");
    };
  }

  private String resolve() {
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
      case VAULT -> vault.reveal(VaultReference.parse(reference), setting);
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

  /**
   * {@code env:NAME}, {@code file:/absolute/path}, {@code vault:mount/path#field} or {@code
   * literal}: safe to print.
   */
  public String describe() {
    return switch (kind) {
      case ENVIRONMENT -> "env:" + reference;
      case FILE -> "file:" + reference;
      case VAULT -> "vault:" + reference;
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
        && reference.equals(that.reference)
        && characters == that.characters;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, setting, reference, characters);
  }

  /** Always {@code ***}: a secret must never reach a log line or a printed config. */
  @Override
  public String toString() {
    return REDACTED;
  }
}
