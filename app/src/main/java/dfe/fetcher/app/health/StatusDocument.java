package dfe.fetcher.app.health;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.runtime.cursor.StoredCheckpoint;
import dfe.fetcher.runtime.service.UnitStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code /status} document: the server's time and, per enabled unit, its last tick, outcome,
 * last success, its connection's next run and its checkpoint. A time not known yet is {@code null}.
 *
 * <pre>{@code
 * {"now":"2026-05-01T12:00:05Z","units":[{"unit":"inventory.hosts","connection":"inventory",
 *  "shape":"dump","running_since":null,"last_tick_end":"2026-05-01T12:00:01Z",
 *  "last_outcome":"succeeded","last_failure":null,"last_success":"2026-05-01T12:00:01Z",
 *  "next_tick":"2026-05-01T12:01:01Z","checkpoint":{"kind":"file","description":"last ...",
 *  "written_at":"2026-05-01T12:00:01Z"}}]}
 * }</pre>
 *
 * {@code checkpoint} is {@code null} for a unit that keeps none (a database or REST dump).
 */
final class StatusDocument {

  private static final ObjectMapper JSON = new ObjectMapper();

  private StatusDocument() {}

  static String render(List<UnitStatus> units, Instant now) {
    ObjectNode document = JSON.createObjectNode();
    document.put("now", now.toString());
    ArrayNode list = document.putArray("units");
    for (UnitStatus unit : units) {
      ObjectNode node = list.addObject();
      node.put("unit", unit.store());
      node.put("connection", unit.connection());
      node.put("shape", unit.shape());
      put(node, "running_since", unit.ticks().runningSince());
      put(node, "last_tick_end", unit.ticks().lastTickEnd());
      node.put("last_outcome", unit.lastOutcome().orElse(null));
      node.put("last_failure", unit.lastFailure().orElse(null));
      put(node, "last_success", unit.ticks().lastSuccess());
      put(node, "next_tick", unit.nextRun());
      if (unit.checkpoint().isEmpty()) {
        node.putNull("checkpoint");
      } else {
        StoredCheckpoint checkpoint = unit.checkpoint().get();
        ObjectNode held = node.putObject("checkpoint");
        held.put("kind", checkpoint.kind());
        held.put("description", checkpoint.description());
        put(
            held,
            "written_at",
            checkpoint instanceof StoredCheckpoint.Held mark
                ? Optional.of(mark.writtenAt())
                : Optional.empty());
      }
    }
    try {
      return JSON.writeValueAsString(document) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the status document could not be written as JSON", e);
    }
  }

  private static void put(ObjectNode node, String field, Optional<Instant> at) {
    node.put(field, at.map(Instant::toString).orElse(null));
  }
}
