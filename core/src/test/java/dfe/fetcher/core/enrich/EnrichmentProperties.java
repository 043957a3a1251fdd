package dfe.fetcher.core.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Records whose keys often collide with the enrichment fields and with each other's renamed forms:
 * the enriched record is valid JSON without a repeated key, ends with the four fields, and holds
 * every value of the record in its place under its own key or a renamed one.
 */
class EnrichmentProperties {

  private static final EnrichmentFields FIELDS = new EnrichmentFields(11, 22, "topic", "c.u");
  private static final ObjectMapper STRICT =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final List<String> KEY_POOL =
      List.of(
          "_source",
          "_source_original",
          "_source_original_2",
          "_source_original_3",
          "_source_fetcher",
          "_source_fetcher_original",
          "_timestamp_fetcher",
          "_timestamp_fetcher_original_2",
          "_timestamp_received",
          "id",
          "q\"uote",
          "é");

  @Property(tries = 400)
  void everyValueSurvivesUnderItsKeyOrARenamedOne(@ForAll("records") List<String> members)
      throws IOException {
    List<String> keys = new ArrayList<>();
    StringBuilder record = new StringBuilder("{");
    for (int i = 0; i < members.size(); i++) {
      String key = members.get(i);
      keys.add(key);
      record.append(i == 0 ? "" : " ,").append('"').append(quote(key)).append("\": ");
      record.append("{\"_source\":").append(i).append(",\"v\":[").append(i).append(".50]}");
    }
    record.append('}');

    byte[] enriched = Enrichment.enrichRecord(RawRecord.of(record.toString()), FIELDS);
    JsonNode object = STRICT.readTree(enriched);

    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(object.properties());
    assertThat(entries).hasSize(keys.size() + 4);
    for (int i = 0; i < keys.size(); i++) {
      String original = keys.get(i);
      String written = entries.get(i).getKey();
      if (EnrichmentFields.KEYS.contains(original)) {
        assertThat(written).startsWith(original + "_original");
      } else {
        assertThat(written).isEqualTo(original);
      }
      assertThat(entries.get(i).getValue().get("_source").asInt()).isEqualTo(i);
    }
    assertThat(entries.subList(keys.size(), keys.size() + 4))
        .extracting(Map.Entry::getKey)
        .containsExactlyElementsOf(EnrichmentFields.KEYS);
    assertThat(object.get("_source").asText()).isEqualTo("topic");
  }

  /**
   * A record checked to be one object is spliced without a parse; the bytes must be exactly what
   * the parse would have written, also when a key is one of the four spelled with escapes.
   */
  @Property(tries = 600)
  void aCheckedObjectEnrichesToTheBytesOfAParsedOne(
      @ForAll("spelledKeys") List<String> keys, @ForAll("spaces") String space) {
    StringBuilder record = new StringBuilder("{").append(space);
    for (int i = 0; i < keys.size(); i++) {
      record.append(i == 0 ? "" : ",").append(space).append('"').append(keys.get(i)).append('"');
      record.append(space).append(':').append(space).append("{\"k\":").append(i).append('}');
    }
    record.append(space).append('}');
    byte[] json = record.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);

    byte[] parsed = Enrichment.enrichRecord(RawRecord.of(json.clone()), FIELDS);
    byte[] spliced = Enrichment.enrichRecord(RawRecord.ofCheckedObject(json.clone()), FIELDS);

    assertThat(new String(spliced, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(parsed, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Keys as they stand between quotes in JSON: some of the four written with escapes. */
  @Provide
  Arbitrary<List<String>> spelledKeys() {
    return Arbitraries.of(
            "id",
            "_source",
            "\\u005fsource",
            "_sourc\\u0065_fetcher",
            "_timestamp_received",
            "\\u005F\\u0074imestamp_fetcher",
            "source",
            "a\\\\u005fsource",
            "\\n_source_x",
            "é")
        .list()
        .uniqueElements()
        .ofMaxSize(6);
  }

  @Provide
  Arbitrary<String> spaces() {
    return Arbitraries.of("", " ", "\n\t ");
  }

  @Provide
  Arbitrary<List<String>> records() {
    return Arbitraries.of(KEY_POOL).list().uniqueElements().ofMaxSize(KEY_POOL.size());
  }

  private static String quote(String text) {
    return new String(JsonStringEncoder.getInstance().quoteAsString(text));
  }
}
