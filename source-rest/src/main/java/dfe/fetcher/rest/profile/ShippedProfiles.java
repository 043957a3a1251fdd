package dfe.fetcher.rest.profile;

import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.YamlNode;
import dfe.fetcher.source.config.YamlTreeReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The profiles this module ships as resources ({@code profiles/<name>.yaml}), read with the same
 * reader as the configuration, so their problems carry {@code source-rest:profiles/<name>.yaml:
 * LINE:COL}.
 */
public final class ShippedProfiles {

  /** Every shipped profile, by the name {@code profile:} takes. */
  public static final List<String> NAMES =
      List.of(
          "github-issues",
          "okta-system-log",
          "runzero-assets",
          "generic-json",
          "gcp",
          "aws",
          "azure",
          "runzero",
          "github",
          "slack",
          "cloudflare",
          "datadog",
          "bitwarden",
          "salesforce",
          "google_workspace",
          "okta",
          "duo",
          "onepassword",
          "gcp_pubsub",
          "m365",
          "object_store",
          "crates_io",
          "pypi",
          "go_modules",
          "crowdstrike");

  private ShippedProfiles() {}

  /** What a shipped profile's problems are labelled with. */
  public static Path label(String name) {
    return Path.of("source-rest:profiles/" + name + ".yaml");
  }

  /**
   * The profile's root node; empty when it is not shipped.
   *
   * @throws ConfigException when the resource is not YAML, which a test of every shipped profile
   *     rules out
   */
  public static Optional<YamlNode> read(String name, Problems problems) throws ConfigException {
    if (!NAMES.contains(name)) {
      return Optional.empty();
    }
    String text;
    try (InputStream in =
        ShippedProfiles.class.getResourceAsStream("/profiles/" + name + ".yaml")) {
      if (in == null) {
        throw new IllegalStateException("shipped profile " + name + " is missing from the jar");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new YamlTreeReader(label(name), problems).read(text);
  }
}
