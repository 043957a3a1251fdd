package dfe.fetcher.rest.profile;

import dfe.fetcher.source.config.Section;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A profile's {@code maturity}: how far its requests and rows have been checked against the live
 * API. {@code stable} is the default; an enabled instance of an {@code alpha} or {@code beta}
 * profile is logged at WARN when it is bound (at start, by {@code config-check}, on a reload), so
 * that an operator knows its rows may change shape between releases.
 */
public enum ProfileMaturity implements ConfigWord {
  ALPHA("alpha"),
  BETA("beta"),
  STABLE("stable");

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  private final String configName;

  ProfileMaturity(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }

  public static List<String> names() {
    return ConfigWord.names(ProfileMaturity.class);
  }

  /**
   * The profile's {@code maturity}, reported when it is no word of {@link #names()}; warned about
   * for an enabled instance ({@code connection}'s {@code enabled}) when it is not stable.
   */
  static ProfileMaturity bind(Section profile, Section connection, String id, String profileName) {
    Optional<String> written = profile.string("maturity");
    if (written.isEmpty()) {
      return STABLE;
    }
    Optional<ProfileMaturity> maturity = ConfigWord.named(ProfileMaturity.class, written.get());
    if (maturity.isEmpty()) {
      profile.report(
          "maturity",
          "unknown maturity '" + written.get() + "'; one of " + String.join(", ", names()));
      return STABLE;
    }
    if (maturity.get() != STABLE && connection.bool("enabled", true)) {
      LOG.warn(
          "event=rest_profile_not_stable source={} profile={} maturity={}: its requests and rows"
              + " may change between releases",
          id,
          profileName,
          maturity.get().configName());
    }
    return maturity.get();
  }
}
