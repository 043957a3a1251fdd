package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.page.Utf8Text;
import java.nio.charset.CharacterCodingException;
import java.util.Base64;
import java.util.List;

/**
 * {@code pubsub_message}: one {@code ReceivedMessage} of Pub/Sub's {@code subscriptions.pull}
 * ({@code {"ackId": ..., "message": {"data": BASE64, "attributes": {...}, "messageId": ...,
 * "publishTime": ..., "orderingKey": ...}, "deliveryAttempt": n}}, read with {@code json_at} at
 * {@code /receivedMessages}) becomes one row: the message's data, base64-decoded, as the row when
 * it is a JSON object, else under {@code payload} (a JSON value that is not an object, or the data
 * as text when it is not JSON); and beside it, under {@code _dfe_fetcher_pubsub}, the envelope:
 * {@code ackId}, {@code messageId}, {@code publishTime}, {@code attributes}, and {@code
 * orderingKey} and {@code deliveryAttempt} when the message has them.
 *
 * <p>Data that is not base64 (standard or URL-safe, padded or not, as the protobuf JSON mapping
 * accepts), data that is not UTF-8 text, a message without {@code ackId} or {@code messageId}, or a
 * JSON payload that has a field {@code _dfe_fetcher_pubsub} already fails the element.
 */
final class PubSubMessage implements RowBuilder {

  static final String ENVELOPE = "_dfe_fetcher_pubsub";
  static final String PAYLOAD = "payload";

  @Override
  public void build(JsonNode received, String place, Rows out)
      throws SourceException, InterruptedException {
    JsonNode message = received.get("message");
    if (!received.isObject() || message == null || !message.isObject()) {
      throw new SourceException(
          place + " is not a ReceivedMessage with a message (builder pubsub_message)");
    }
    ObjectNode envelope = ShapedJson.NODES.objectNode();
    envelope.set("ackId", required(received, "ackId", place));
    envelope.set("messageId", required(message, "messageId", place + ": message"));
    for (String name : List.of("publishTime", "attributes", "orderingKey")) {
      JsonNode value = message.get(name);
      if (value != null && !value.isNull()) {
        envelope.set(name, value);
      }
    }
    JsonNode attempt = received.get("deliveryAttempt");
    if (attempt != null && !attempt.isNull()) {
      envelope.set("deliveryAttempt", attempt);
    }
    JsonNode payload = payload(message.get("data"), place);
    ObjectNode row;
    if (payload instanceof ObjectNode object) {
      if (object.has(ENVELOPE)) {
        throw new SourceException(
            place + ": the message's data has a field " + ENVELOPE + " (builder pubsub_message)");
      }
      row = object;
    } else {
      row = ShapedJson.NODES.objectNode();
      row.set(PAYLOAD, payload);
    }
    row.set(ENVELOPE, envelope);
    out.accept(row);
  }

  private static JsonNode required(JsonNode node, String name, String place)
      throws SourceException {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw new SourceException(place + " has no " + name + " (builder pubsub_message)");
    }
    return value;
  }

  /** The decoded data: its JSON value when it holds exactly one, else its text. */
  private static JsonNode payload(JsonNode data, String place) throws SourceException {
    if (data == null || data.isNull()) {
      // A message may carry attributes alone; its data is then left out of the JSON.
      return ShapedJson.NODES.textNode("");
    }
    if (!data.isTextual()) {
      throw new SourceException(
          place + ": message.data is not a base64 string (builder pubsub_message)");
    }
    byte[] bytes;
    try {
      String text = data.textValue();
      boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
      bytes = (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
    } catch (IllegalArgumentException e) {
      throw new SourceException(
          place + ": message.data is not valid base64 (builder pubsub_message)");
    }
    String text;
    try {
      text = Utf8Text.decode(bytes, 0, bytes.length);
    } catch (CharacterCodingException e) {
      throw new SourceException(
          place + ": message.data is not UTF-8 text (builder pubsub_message)");
    }
    try {
      return ShapedJson.read(text);
    } catch (JsonProcessingException e) {
      return ShapedJson.NODES.textNode(text);
    }
  }
}
