package dfe.fetcher.rest.shape;

import dfe.fetcher.rest.profile.ConfigWord;
import java.util.List;
import java.util.Optional;

/**
 * The row builders ({@code rows.builder}), registered here once: a new builder is one {@link
 * RowBuilder} class and one constant.
 */
public enum RowBuilderType implements ConfigWord {
  /** A table of columns and rows arrays (Azure Log Analytics) becomes one object per row. */
  COLUMNAR_TABLE("columnar_table", false),
  /** A CloudWatch {@code MetricDataResult} becomes one row per datapoint. */
  CLOUDWATCH_METRICS("cloudwatch_metrics", false),
  /** A Pub/Sub {@code ReceivedMessage} becomes its decoded data with its envelope beside it. */
  PUBSUB_MESSAGE("pubsub_message", false),
  /** An element that is not an object is wrapped under {@code rows.field}. */
  WRAP_NON_OBJECT("wrap_non_object", true);

  private final String configName;
  private final boolean takesField;

  RowBuilderType(String configName, boolean takesField) {
    this.configName = configName;
    this.takesField = takesField;
  }

  @Override
  public String configName() {
    return configName;
  }

  /** True when {@code rows.field} applies to it. */
  public boolean takesField() {
    return takesField;
  }

  /** The builder, with {@code rows.field} when it takes one. */
  RowBuilder builder(Optional<String> field) {
    return switch (this) {
      case COLUMNAR_TABLE -> new ColumnarTable();
      case CLOUDWATCH_METRICS -> new CloudWatchMetrics();
      case PUBSUB_MESSAGE -> new PubSubMessage();
      case WRAP_NON_OBJECT -> new WrapNonObject(field.orElse(WrapNonObject.DEFAULT_FIELD));
    };
  }

  public static Optional<RowBuilderType> named(String name) {
    return ConfigWord.named(RowBuilderType.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(RowBuilderType.class);
  }
}
