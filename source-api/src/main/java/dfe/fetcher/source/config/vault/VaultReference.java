package dfe.fetcher.source.config.vault;

import java.util.Objects;

/**
 * Where a {@code vault:} secret is: a field of a KV version 2 secret.
 *
 * @param mount the KV v2 engine's mount, the spec's first path segment (e.g. {@code secret})
 * @param path the secret's path under the mount (e.g. {@code dfe/kafka})
 * @param field the key inside the secret's data (e.g. {@code password})
 */
public record VaultReference(String mount, String path, String field) {

  public VaultReference {
    Objects.requireNonNull(mount, "mount");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(field, "field");
  }

  /**
   * Reads the part of a spec after {@code vault:}: {@code <mount>/<path>#<field>}.
   *
   * @throws IllegalArgumentException naming what is missing; the message quotes nothing of a value
   *     (a spec is a reference, not a secret)
   */
  public static VaultReference parse(String reference) {
    int hash = reference.lastIndexOf('#');
    int slash = reference.indexOf('/');
    if (hash < 0 || slash <= 0 || slash > hash) {
      throw new IllegalArgumentException(
          "vault: needs <mount>/<path>#<field>, e.g. vault:secret/dfe/kafka#password");
    }
    String mount = reference.substring(0, slash);
    String path = stripSlashes(reference.substring(slash + 1, hash));
    String field = reference.substring(hash + 1);
    if (path.isEmpty()) {
      throw new IllegalArgumentException(
          "vault: needs a path after the mount, e.g. vault:secret/dfe/kafka#password");
    }
    if (field.isEmpty()) {
      throw new IllegalArgumentException(
          "vault: needs a field after '#', e.g. vault:secret/dfe/kafka#password");
    }
    return new VaultReference(mount, path, field);
  }

  private static String stripSlashes(String path) {
    int start = 0;
    int end = path.length();
    while (start < end && path.charAt(start) == '/') {
      start++;
    }
    while (end > start && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(start, end);
  }

  /** {@code mount/path}: the secret, one read for all its fields. */
  public String secretPath() {
    return mount + "/" + path;
  }

  /** {@code mount/path#field}: safe to print. */
  @Override
  public String toString() {
    return mount + "/" + path + "#" + field;
  }
}
