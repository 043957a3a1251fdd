package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.SourceException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code go_module_aggregate}: the {@code .info} documents of one Go module's versions ({@code
 * {"Version": "v0.3.2", "Time": "2019-05-30T21:12:45Z"}}, as the module proxy protocol answers
 * {@code $module/@v/$version.info}) become one row:
 *
 * <pre>{@code
 * {"_dfe_fetcher_module": "golang.org/x/text",          // the fields add_fields put on every row
 *  "versions": [{"Version": "v0.3.0", "Time": "..."}, {"Version": "v0.3.2", "Time": "..."}],
 *  "version_count": 2,
 *  "last_published_version": "v0.3.2", "last_published_time": "2019-05-30T21:12:45Z"}
 * }</pre>
 *
 * <p>Fields named {@code _dfe_fetcher_*} (what {@code add_fields} added) must be the same on every
 * document and are written once, at the top; each document without them is one entry of {@code
 * versions}, in the order landed, as the proxy wrote it. The last published version is the one with
 * the latest {@code Time} (the first of equal ones); both fields are left out when no document has
 * a {@code Time}, which the protocol makes optional. No document, no row. A document without a
 * {@code Version} string, with a {@code Time} that is not RFC 3339, or whose {@code _dfe_fetcher_*}
 * field differs from the first document's, fails the listing.
 */
final class GoModuleAggregate implements Fold {

  private static final String OURS = "_dfe_fetcher_";

  @Override
  public void fold(List<JsonNode> rows, String place, RowBuilder.Rows out)
      throws SourceException, InterruptedException {
    if (rows.isEmpty()) {
      return;
    }
    ObjectNode folded = ShapedJson.NODES.objectNode();
    ArrayNode versions = ShapedJson.NODES.arrayNode();
    JsonNode last = null;
    Instant lastTime = null;
    for (int i = 0; i < rows.size(); i++) {
      String row = place + ": row " + i;
      if (!(rows.get(i) instanceof ObjectNode document)) {
        throw new SourceException(row + " is not a JSON object (fold go_module_aggregate)");
      }
      ObjectNode version = ShapedJson.NODES.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> fields = document.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (!field.getKey().startsWith(OURS)) {
          version.set(field.getKey(), field.getValue());
        } else if (i == 0) {
          folded.set(field.getKey(), field.getValue());
        } else if (!field.getValue().equals(folded.get(field.getKey()))) {
          throw new SourceException(
              row
                  + ": "
                  + field.getKey()
                  + " differs from the first row's; add_fields of a fold must be the same on every"
                  + " row of a listing (fold go_module_aggregate)");
        }
      }
      JsonNode name = version.get("Version");
      if (name == null || !name.isTextual()) {
        throw new SourceException(row + " has no Version string (fold go_module_aggregate)");
      }
      JsonNode time = version.get("Time");
      if (time != null && !time.isNull()) {
        Instant at = instant(time, row);
        if (lastTime == null || at.isAfter(lastTime)) {
          lastTime = at;
          last = version;
        }
      }
      versions.add(version);
    }
    folded.set("versions", versions);
    folded.put("version_count", versions.size());
    if (last != null) {
      folded.set("last_published_version", last.get("Version"));
      folded.set("last_published_time", last.get("Time"));
    }
    out.accept(folded);
  }

  private static Instant instant(JsonNode time, String row) throws SourceException {
    if (time.isTextual()) {
      try {
        return OffsetDateTime.parse(time.textValue()).toInstant();
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    throw new SourceException(row + ": Time is not an RFC 3339 time (fold go_module_aggregate)");
  }
}
