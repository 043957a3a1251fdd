package dfe.fetcher.rest.construct;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.BodyTemplate;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.JsonValues;
import dfe.fetcher.rest.profile.TemplateException;
import dfe.fetcher.rest.profile.TemplateValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code construct.keyset}: the endpoint's listing is read once per key, its templates reading the
 * key as {@code key} (a scalar) or {@code key.<field>} (an object). The keys are got once per tick,
 * before the first listing, from exactly one of:
 *
 * <ul>
 *   <li>{@code from}: a template over the connection's {@code vars} and {@code unit.name} that
 *       yields a list ({@code "{{ vars.crates.split(',') }}"}), or a string holding a JSON array
 *       (an instance variable {@code '[{"workspace_id": "w1", "kql": "..."}]'}), or a YAML list
 *       whose strings are such templates;
 *   <li>{@code request} + {@code keys_at}: a request sent first (GET by default, one page), the
 *       keys the JSON array at {@code keys_at} of its answer. An answer its {@code
 *       errors.ignore_status} lists is no keys.
 * </ul>
 *
 * No key is no listing: a dump lands its begin and end with no rows, a window advances.
 *
 * @param from the keys' template, when they come from it
 * @param request the keys' request, when they come from one
 * @param keysAt the JSON pointer of the keys in the request's answer
 * @param configPath where {@code construct.keyset} is written, for messages
 */
public record Keyset(
    Optional<BodyTemplate> from,
    Optional<Endpoint> request,
    Optional<String> keysAt,
    String configPath) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public Keyset {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(keysAt, "keysAt");
    Objects.requireNonNull(configPath, "configPath");
  }

  /**
   * This tick's keys, each as templates read it.
   *
   * @param requestListing the listing of {@link #request}, when the keys come from one
   * @throws SourceException when the keys cannot be got, naming the setting, never a value
   */
  List<Object> keys(
      String source,
      Map<String, String> vars,
      String unit,
      Optional<Listing> requestListing,
      Cancellation cancellation)
      throws SourceException, InterruptedException {
    if (from.isPresent()) {
      return fromTemplate(source, TemplateValues.of(vars, unit));
    }
    List<byte[]> answer = new ArrayList<>();
    requestListing
        .orElseThrow()
        .readUpToMaxPages(
            Optional.empty(), (record, origin) -> answer.add(record.bytes()), cancellation);
    if (answer.isEmpty()) {
      return List.of();
    }
    JsonNode keys;
    try {
      keys = JSON.readTree(answer.get(0)).at(keysAt.orElseThrow());
    } catch (IOException e) {
      throw new SourceException(source + ": " + configPath + ".request: the answer is not JSON");
    }
    if (!keys.isArray()) {
      throw new SourceException(
          source
              + ": "
              + configPath
              + ".keys_at: the answer to "
              + configPath
              + ".request has no list at "
              + keysAt.get());
    }
    return elements(keys);
  }

  private List<Object> fromTemplate(String source, TemplateValues values) throws SourceException {
    JsonNode keys;
    try {
      keys = JSON.readTree(from.orElseThrow().render(values));
    } catch (TemplateException e) {
      throw new SourceException(source + ": " + configPath + ".from: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalStateException("a rendered template is JSON", e);
    }
    if (keys.isTextual()) {
      try {
        keys = JSON.readTree(keys.asText());
      } catch (IOException e) {
        keys = null;
      }
    }
    if (keys == null || !keys.isArray()) {
      throw new SourceException(
          source
              + ": "
              + configPath
              + ".from: yields no list; yield a list, e.g. {{ vars.crates.split(',') }}, or a"
              + " string holding a JSON array");
    }
    return elements(keys);
  }

  private static List<Object> elements(JsonNode keys) {
    List<Object> elements = new ArrayList<>(keys.size());
    keys.forEach(key -> elements.add(JsonValues.of(key)));
    return elements;
  }
}
