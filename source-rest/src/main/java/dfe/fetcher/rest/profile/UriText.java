package dfe.fetcher.rest.profile;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * How what a template yields goes into a URL: never spliced in as it is. A query value is
 * form-encoded; a path value is percent-encoded keeping {@code /}, since a variable may name a path
 * of several segments (generic-json's {@code vars.path}).
 */
public final class UriText {

  private UriText() {}

  public static String pathValue(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20").replace("%2F", "/");
  }

  public static String queryValue(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
