package dfe.fetcher.snapshots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Where {@code snapshots verify} and {@code rows} read frames: files, Kafka topics, or both. */
final class FrameSources {

  @Spec(Spec.Target.MIXEE)
  private CommandSpec command;

  @Parameters(
      arity = "0..*",
      paramLabel = "FILE",
      description = "Files of frames, one JSON object per line; - reads standard input.")
  private List<String> files = new ArrayList<>();

  @Option(
      names = "--bootstrap-server",
      paramLabel = "HOST:PORT[,...]",
      description = "Kafka brokers to read --topic from.")
  private String bootstrapServers;

  @Option(
      names = "--topic",
      paramLabel = "TOPIC",
      description =
          "A topic to read, every partition from the beginning to the end offsets at start;"
              + " no consumer group, no committed offsets. Repeatable.")
  private List<String> topics = new ArrayList<>();

  @Option(
      names = "--consumer-property",
      paramLabel = "KEY=VALUE",
      description =
          "A Kafka consumer property, e.g. security.protocol=SASL_SSL. Repeatable. Topics are read"
              + " committed; isolation.level=read_uncommitted also reads aborted transactions.")
  private Map<String, String> consumerProperties = new LinkedHashMap<>();

  /** A usage error when nothing is named to read, or a topic without brokers. */
  void check() {
    if (files.isEmpty() && topics.isEmpty()) {
      throw new ParameterException(
          command.commandLine(), "give at least one FILE, or --bootstrap-server and --topic");
    }
    if (!topics.isEmpty() && bootstrapServers == null) {
      throw new ParameterException(command.commandLine(), "--topic needs --bootstrap-server");
    }
  }

  /** Reads every file, then every topic, into {@code input}. */
  void readInto(FrameInput input) {
    check();
    input.readAll(files);
    if (!topics.isEmpty()) {
      KafkaTopicInput kafka =
          new KafkaTopicInput(new KafkaConsumerSettings(bootstrapServers, consumerProperties));
      for (String topic : topics) {
        kafka.read(topic, input);
      }
    }
  }
}
