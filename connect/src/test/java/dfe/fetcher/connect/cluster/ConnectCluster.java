package dfe.fetcher.connect.cluster;

import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.WorkerHandle;

/**
 * A Connect cluster of two distributed workers on a real KRaft broker (Connect's embedded cluster
 * from the connect-runtime test jar), and what the tests read back from it.
 */
public final class ConnectCluster implements AutoCloseable {

  private final EmbeddedConnectCluster connect;

  private ConnectCluster(EmbeddedConnectCluster connect) {
    this.connect = connect;
  }

  /** Two workers; with {@code exactlyOnce}, {@code exactly.once.source.support=enabled}. */
  public static ConnectCluster start(String name, boolean exactlyOnce) {
    Map<String, String> worker = new HashMap<>();
    worker.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    worker.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    worker.put("offset.flush.interval.ms", "500");
    // A worker that leaves has its tasks moved after this long, not the default five minutes.
    worker.put("scheduled.rebalance.max.delay.ms", "1000");
    worker.put("task.shutdown.graceful.timeout.ms", "10000");
    if (exactlyOnce) {
      worker.put("exactly.once.source.support", "enabled");
    }
    Properties broker = new Properties();
    broker.put("transaction.state.log.replication.factor", "1");
    broker.put("transaction.state.log.min.isr", "1");
    broker.put("auto.create.topics.enable", "false");
    EmbeddedConnectCluster connect =
        new EmbeddedConnectCluster.Builder()
            .name(name)
            .numWorkers(2)
            .numBrokers(1)
            .workerProps(worker)
            .brokerProps(broker)
            .build();
    connect.start();
    await().atMost(Duration.ofSeconds(60)).until(() -> connect.healthyWorkers().size() == 2);
    return new ConnectCluster(connect);
  }

  public EmbeddedConnectCluster connect() {
    return connect;
  }

  public String bootstrapServers() {
    return connect.kafka().bootstrapServers();
  }

  public void createTopics(String... topics) {
    for (String topic : topics) {
      connect.kafka().createTopic(topic, 1);
    }
  }

  /** The connector's tasks, waiting until each runs. */
  public List<ConnectorStateInfo.TaskState> runningTasks(String connector, int tasks) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              try {
                ConnectorStateInfo status = connect.connectorStatus(connector);
                return status.tasks().size() == tasks
                    && status.tasks().stream().allMatch(task -> task.state().equals("RUNNING"));
              } catch (RuntimeException notYet) {
                return false;
              }
            });
    return connect.connectorStatus(connector).tasks();
  }

  /** The worker a task runs on. */
  public WorkerHandle workerOf(ConnectorStateInfo.TaskState task) {
    for (WorkerHandle worker : connect.workers()) {
      URI url = worker.url();
      if (task.workerId().endsWith(":" + url.getPort())) {
        return worker;
      }
    }
    throw new AssertionError("no worker runs " + task.workerId() + " among " + connect.workers());
  }

  /** Stops a worker as an operator would take it down; its tasks move to the others. */
  public void removeWorker(WorkerHandle worker) {
    connect.removeWorker(worker);
  }

  /** Every message now on {@code topic}, read to its end (for read_committed: the stable end). */
  public List<ConsumerRecord<byte[], byte[]>> readAll(String topic, boolean readCommitted) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    properties.put(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        readCommitted ? "read_committed" : "read_uncommitted");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(10))) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("could not read " + topic + " to its end " + end);
        }
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }

  /** The frames on {@code topic}, reassembled. */
  public Reassembler reassembled(String topic, boolean readCommitted) {
    Reassembler reassembler = Reassembler.retainingRecords();
    for (ConsumerRecord<byte[], byte[]> record : readAll(topic, readCommitted)) {
      try {
        reassembler.accept(record.value());
      } catch (InvalidFrameException e) {
        throw new AssertionError("a message on " + topic + " is not a frame", e);
      }
    }
    return reassembler;
  }

  /** The rows of every complete snapshot on {@code topic}, each as its records' JSON. */
  public List<List<String>> completeSnapshots(String topic, boolean readCommitted) {
    Reassembler reassembler = reassembled(topic, readCommitted);
    List<List<String>> snapshots = new ArrayList<>();
    for (SnapshotReport report : reassembler.reports()) {
      if (report.status() == SnapshotStatus.COMPLETE) {
        snapshots.add(
            reassembler.rows(report.snapshotId()).stream().map(Object::toString).toList());
      }
    }
    return snapshots;
  }

  /** The statuses of the snapshots on {@code topic}. */
  public Set<SnapshotStatus> statuses(String topic, boolean readCommitted) {
    return Set.copyOf(
        reassembled(topic, readCommitted).reports().stream().map(SnapshotReport::status).toList());
  }

  @Override
  public void close() {
    connect.stop();
  }
}
