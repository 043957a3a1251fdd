package dfe.fetcher.runtime.transport;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the Kafka output asks of the cluster besides producing: whether it is reachable (for {@code
 * /readyz}, cached briefly and never behind a lock) and, when asked to, the creation of the topics
 * a batch lands on. The admin client is created on first use and closed with {@link #close}.
 */
final class TopicAdmin implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.output");

  private static final Duration READINESS_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration READINESS_CACHE = Duration.ofSeconds(2);
  private static final Duration ADMIN_CLOSE_TIMEOUT = Duration.ofSeconds(5);
  private static final long DEFAULT_MAX_BLOCK_MILLIS = 60_000;

  private final String bootstrapServers;
  private final Map<String, Object> settings;
  private final TopicCreation topicCreation;
  private final long topicCheckMillis;
  private final Set<String> knownTopics = ConcurrentHashMap.newKeySet();
  private final AtomicReference<Admin> admin = new AtomicReference<>();
  private volatile boolean closed;
  private volatile long readinessCheckedAt;
  private volatile boolean ready;

  /** The admin client takes those of the operator's {@code properties} it knows. */
  TopicAdmin(String bootstrapServers, Map<String, String> properties, TopicCreation topicCreation) {
    this.bootstrapServers = bootstrapServers;
    this.topicCreation = topicCreation;
    Map<String, Object> adminProps = new HashMap<>();
    for (Map.Entry<String, String> property : properties.entrySet()) {
      if (AdminClientConfig.configNames().contains(property.getKey())) {
        adminProps.put(property.getKey(), property.getValue());
      }
    }
    adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    adminProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) READINESS_TIMEOUT.toMillis());
    adminProps.put(
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READINESS_TIMEOUT.toMillis());
    this.settings = Collections.unmodifiableMap(adminProps);
    this.topicCheckMillis = topicCheckMillis(properties);
  }

  /**
   * How long the check that a topic exists may wait for the cluster: as long as the producer would
   * wait for the topic's metadata, its {@code max.block.ms} (Kafka's default, 60 s, unless the
   * operator set it). A cluster that is starting, or slow under load, is waited for as a send would
   * wait for it, not failed after a fixed few seconds.
   */
  static long topicCheckMillis(Map<String, String> properties) {
    String configured = properties.get(ProducerConfig.MAX_BLOCK_MS_CONFIG);
    if (configured != null) {
      try {
        return Math.max(1, Long.parseLong(configured.trim()));
      } catch (NumberFormatException e) {
        // The producer refuses the value when it is built, naming it; wait as it would by default.
      }
    }
    return DEFAULT_MAX_BLOCK_MILLIS;
  }

  /** True while the cluster answered with at least one broker within the readiness timeout. */
  boolean isReady() {
    if (closed) {
      return false;
    }
    long now = System.nanoTime();
    if (now - readinessCheckedAt < READINESS_CACHE.toNanos()) {
      return ready;
    }
    boolean reachable;
    try {
      reachable =
          !admin()
              .describeCluster()
              .nodes()
              .get(READINESS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
              .isEmpty();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      reachable = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reachable = false;
    }
    ready = reachable;
    readinessCheckedAt = System.nanoTime();
    return reachable;
  }

  @Override
  public void close() {
    closed = true;
    closeAdmin();
  }

  /**
   * The admin client, created on first use outside any lock (creating a client resolves the
   * bootstrap servers, and readiness must never wait on another thread's I/O).
   */
  private Admin admin() {
    Admin existing = admin.get();
    if (existing == null) {
      Admin created = Admin.create(settings);
      if (admin.compareAndSet(null, created)) {
        existing = created;
      } else {
        created.close(Duration.ZERO);
        existing = admin.get();
      }
    }
    if (closed || existing == null) {
      // close() may have run before this client was stored, and not seen it.
      closeAdmin();
      throw new IllegalStateException("the Kafka output is closed");
    }
    return existing;
  }

  private void closeAdmin() {
    Admin open = admin.getAndSet(null);
    if (open != null) {
      open.close(ADMIN_CLOSE_TIMEOUT);
    }
  }

  /**
   * Forgets that {@code topic} was seen: a send to it failed, maybe because it was deleted, so the
   * next batch for it asks the cluster to create it again (an admin round trip that finds it there
   * when it was not deleted).
   */
  void forget(String topic) {
    knownTopics.remove(topic);
  }

  /**
   * Creates the topics of {@code batch} not seen before, or not since a send to them failed, when
   * topic creation is on.
   *
   * @throws TransportException when a creation fails (other than for a topic that exists) or times
   *     out
   */
  void createMissingTopics(List<OutboundRecord> batch) {
    if (!topicCreation.enabled()) {
      return;
    }
    for (OutboundRecord record : batch) {
      String topic = record.topic();
      if (knownTopics.contains(topic)) {
        continue;
      }
      try {
        admin()
            .createTopics(
                List.of(
                    new NewTopic(
                        topic, topicCreation.partitions(), topicCreation.replicationFactor())),
                new CreateTopicsOptions()
                    .timeoutMs((int) Math.min(Integer.MAX_VALUE, topicCheckMillis)))
            .all()
            // The admin's own timeout ends the call; this one only guards against a call that
            // never returns.
            .get(topicCheckMillis + READINESS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info(
            "event=topic_created topic={} partitions={} replication_factor={}",
            topic,
            topicCreation.partitions(),
            topicCreation.replicationFactor());
      } catch (ExecutionException e) {
        if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
          // "Timed out waiting for a node assignment": no broker answered, nothing was created.
          throw unanswered(topic, e.getCause());
        }
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new TransportException(
              "creating topic " + topic + " failed: " + e.getCause().getMessage(), e.getCause());
        }
      } catch (TimeoutException e) {
        throw unanswered(topic, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted while creating topic " + topic, e);
      }
      knownTopics.add(topic);
    }
  }

  /**
   * The cluster did not answer the request that makes sure {@code topic} exists (sent before a
   * batch to a topic not seen yet, or to one whose send failed): it is down or unreachable, which
   * is what the operator needs to know, not that a topic was being created.
   */
  private TransportException unanswered(String topic, Throwable cause) {
    return new TransportException(
        "the Kafka cluster at "
            + bootstrapServers
            + " did not answer within "
            + topicCheckMillis
            + " ms, max.block.ms (asked whether topic "
            + topic
            + " exists, output.kafka.create_topics); nothing was sent",
        cause);
  }
}
