package dfe.fetcher.rest.construct;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.JsonValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code construct.queue}: the endpoint's request is a pull from a queue (Pub/Sub's {@code
 * subscriptions.pull}), each message of its answer read as an element, and every message is
 * acknowledged to the provider once the rows it became have landed, so a crash or a failure before
 * the acknowledgement has the provider deliver it again: at least once, never lost.
 *
 * <p>Each message's ack id is read at {@code ack_at} from the message as the decoder read it,
 * before any row shaping (a builder may move or drop it); a message without one fails the pull,
 * naming the pointer. The ack ids of one pull are sent {@code ack_batch} at a time with {@code
 * ack_request}, whose templates read the batch as {@code ack_ids} (a typed list: {@code "{{ ack_ids
 * }}"} in a body is a JSON array of the ids as the messages held them). A queue unit reads no
 * window and writes no checkpoint: what is unacknowledged is the provider's to keep.
 *
 * @param ackAt the JSON pointer of a message's ack id
 * @param ackBatch the most ack ids one {@code ack_request} carries
 * @param ackRequest the acknowledgement: POST by default, its answer not read
 * @param configPath where {@code construct.queue} is written, for messages
 */
public record Queue(String ackAt, int ackBatch, Endpoint ackRequest, String configPath) {

  public static final int DEFAULT_ACK_BATCH = 500;
  public static final int MAX_ACK_BATCH = 10_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  public Queue {
    Objects.requireNonNull(ackAt, "ackAt");
    Objects.requireNonNull(ackRequest, "ackRequest");
    Objects.requireNonNull(configPath, "configPath");
  }

  /**
   * The ack id of {@code message}, as it holds it (a string stays a string, a number a number).
   *
   * @param origin where the message was read, for the message that refuses it
   * @throws SourceException when it is not JSON or has nothing (or null) at {@code ack_at}, naming
   *     the place and the setting, never the message's content
   */
  public Object ackId(RawRecord message, String origin) throws SourceException {
    JsonNode id;
    try {
      id = JSON.readTree(message.bytes());
    } catch (IOException e) {
      throw new SourceException(origin + ": " + configPath + ": the message is not JSON");
    }
    id = id == null ? null : id.at(ackAt);
    if (id == null || id.isMissingNode() || id.isNull()) {
      throw new SourceException(
          origin
              + ": "
              + configPath
              + ".ack_at: the message has no ack id at "
              + ackAt
              + "; it is not acknowledged, so the provider delivers it again");
    }
    return JsonValues.of(id);
  }

  /** {@code ackIds} cut into requests of at most {@code ack_batch}, in order. */
  public List<List<Object>> batches(List<Object> ackIds) {
    List<List<Object>> batches = new ArrayList<>();
    for (int from = 0; from < ackIds.size(); from += ackBatch) {
      batches.add(List.copyOf(ackIds.subList(from, Math.min(ackIds.size(), from + ackBatch))));
    }
    return batches;
  }

  /** What {@code config-check} says of it: its bound and request, no value of a var. */
  public String describe() {
    return "queue acknowledging "
        + ackBatch
        + " ack ids a request, "
        + ackRequest.method()
        + " "
        + ackRequest.path().text();
  }
}
