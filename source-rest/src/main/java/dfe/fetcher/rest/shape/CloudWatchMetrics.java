package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.SourceException;

/**
 * {@code cloudwatch_metrics}: one {@code MetricDataResult} of CloudWatch's GetMetricData ({@code
 * {"Id": "m1", "Label": "CPUUtilization", "StatusCode": "Complete", "Timestamps": [...], "Values":
 * [...]}}, read with {@code json_at} at {@code /MetricDataResults}) becomes one row per datapoint:
 * {@code {"Id", "Label", "StatusCode", "Timestamp", "Value"}}, {@code Timestamps[i]} beside {@code
 * Values[i]} as AWS documents them, each copied exactly (epoch seconds as the JSON protocol writes
 * them, or ISO 8601 text). {@code Label} and {@code StatusCode} are left out when the result has
 * none. A result without an {@code Id}, with {@code Timestamps} and {@code Values} of different
 * lengths, a value that is not a number or a timestamp that is neither a number nor text fails the
 * element: the datapoints could not be paired.
 */
final class CloudWatchMetrics implements RowBuilder {

  @Override
  public void build(JsonNode result, String place, Rows out)
      throws SourceException, InterruptedException {
    if (!result.isObject()) {
      throw new SourceException(
          place + " is not a MetricDataResult object (builder cloudwatch_metrics)");
    }
    JsonNode id = result.get("Id");
    if (id == null || !id.isTextual()) {
      throw new SourceException(place + ": the result has no Id (builder cloudwatch_metrics)");
    }
    JsonNode timestamps = array(result, "Timestamps", place);
    JsonNode values = array(result, "Values", place);
    if (timestamps.size() != values.size()) {
      throw new SourceException(
          place
              + ": the result has "
              + timestamps.size()
              + " Timestamps and "
              + values.size()
              + " Values (builder cloudwatch_metrics)");
    }
    for (int i = 0; i < values.size(); i++) {
      if (!values.get(i).isNumber()) {
        throw new SourceException(
            place + ": Values/" + i + " is not a number (builder cloudwatch_metrics)");
      }
      if (!timestamps.get(i).isNumber() && !timestamps.get(i).isTextual()) {
        throw new SourceException(
            place + ": Timestamps/" + i + " is not a time (builder cloudwatch_metrics)");
      }
    }
    for (int i = 0; i < values.size(); i++) {
      ObjectNode row = ShapedJson.NODES.objectNode();
      row.set("Id", id);
      copy(result, "Label", row);
      copy(result, "StatusCode", row);
      row.set("Timestamp", timestamps.get(i));
      row.set("Value", values.get(i));
      out.accept(row);
    }
  }

  /** An absent array is an empty one: a metric without datapoints in the window. */
  private static JsonNode array(JsonNode result, String name, String place) throws SourceException {
    JsonNode array = result.get(name);
    if (array == null || array.isNull()) {
      return ShapedJson.NODES.arrayNode();
    }
    if (!array.isArray()) {
      throw new SourceException(
          place + ": " + name + " is not an array (builder cloudwatch_metrics)");
    }
    return array;
  }

  private static void copy(JsonNode result, String name, ObjectNode row) {
    JsonNode value = result.get(name);
    if (value != null && !value.isNull()) {
      row.set(name, value);
    }
  }
}
