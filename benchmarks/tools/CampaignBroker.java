import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * What the broker faults of the fault campaign (benchmarks/scripts/campaign/broker-faults.sh) ask
 * of the cluster, with Kafka's admin client from the fetcher jar's class path. Each action waits
 * until the cluster shows it done (60 s at most) and prints one line; the exit status is 1 when it
 * did not happen in time.
 *
 * <pre>
 * delete BOOTSTRAP TOPIC...          delete the topics; done when no listing names them
 * lead BOOTSTRAP NODES TOPIC...      every partition's replicas become NODES (comma-separated, the
 *                                    first preferred) and the first is elected leader
 * leaders BOOTSTRAP TOPIC...         print each partition's leader and in-sync replicas
 * </pre>
 */
public class CampaignBroker {

  private static final Duration WAIT = Duration.ofSeconds(60);

  public static void main(String[] args) throws Exception {
    Properties settings = new Properties();
    settings.put("bootstrap.servers", args[1]);
    settings.put("default.api.timeout.ms", "10000");
    settings.put("request.timeout.ms", "5000");
    boolean done;
    try (Admin admin = Admin.create(settings)) {
      done =
          switch (args[0]) {
            case "delete" -> delete(admin, List.of(args).subList(2, args.length));
            case "lead" -> lead(admin, replicas(args[2]), List.of(args).subList(3, args.length));
            case "leaders" -> {
              System.out.println(leaders(admin, List.of(args).subList(2, args.length)));
              yield true;
            }
            default -> throw new IllegalArgumentException("no action named " + args[0]);
          };
    }
    System.exit(done ? 0 : 1);
  }

  private static List<Integer> replicas(String nodes) {
    List<Integer> replicas = new ArrayList<>();
    for (String node : nodes.split(",")) {
      replicas.add(Integer.valueOf(node));
    }
    return replicas;
  }

  private static boolean delete(Admin admin, List<String> topics) throws Exception {
    admin.deleteTopics(topics).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      Set<String> listed = admin.listTopics().names().get(10, TimeUnit.SECONDS);
      if (topics.stream().noneMatch(listed::contains)) {
        System.out.println("deleted " + topics);
        return true;
      }
      Thread.sleep(100);
    }
    System.out.println("still listed after " + WAIT.toSeconds() + " s: " + topics);
    return false;
  }

  private static boolean lead(Admin admin, List<Integer> replicas, List<String> topics)
      throws Exception {
    List<TopicPartition> partitions = partitions(admin, topics);
    Map<TopicPartition, Optional<NewPartitionReassignment>> moves = new java.util.HashMap<>();
    for (TopicPartition partition : partitions) {
      moves.put(partition, Optional.of(new NewPartitionReassignment(replicas)));
    }
    admin.alterPartitionReassignments(moves).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (admin.listPartitionReassignments().reassignments().get().isEmpty()) {
        try {
          admin
              .electLeaders(ElectionType.PREFERRED, Set.copyOf(partitions))
              .all()
              .get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          // ElectionNotNeededException: the preferred replica leads already.
        }
        if (ledBy(admin, topics, replicas.get(0))) {
          System.out.println("led by node " + replicas.get(0) + ": " + leaders(admin, topics));
          return true;
        }
      }
      Thread.sleep(200);
    }
    System.out.println("not led by node " + replicas.get(0) + ": " + leaders(admin, topics));
    return false;
  }

  private static boolean ledBy(Admin admin, List<String> topics, int node) throws Exception {
    for (TopicDescription topic : describe(admin, topics)) {
      for (TopicPartitionInfo partition : topic.partitions()) {
        if (partition.leader() == null || partition.leader().id() != node) {
          return false;
        }
      }
    }
    return true;
  }

  private static String leaders(Admin admin, List<String> topics) throws Exception {
    List<String> parts = new ArrayList<>();
    for (TopicDescription topic : describe(admin, topics)) {
      for (TopicPartitionInfo partition : topic.partitions()) {
        Node leader = partition.leader();
        parts.add(
            topic.name()
                + "-"
                + partition.partition()
                + " leader="
                + (leader == null ? "none" : leader.id())
                + " isr="
                + partition.isr().stream().map(Node::id).toList());
      }
    }
    return String.join(", ", parts);
  }

  private static List<TopicPartition> partitions(Admin admin, List<String> topics)
      throws Exception {
    List<TopicPartition> partitions = new ArrayList<>();
    for (TopicDescription topic : describe(admin, topics)) {
      for (TopicPartitionInfo partition : topic.partitions()) {
        partitions.add(new TopicPartition(topic.name(), partition.partition()));
      }
    }
    return partitions;
  }

  private static List<TopicDescription> describe(Admin admin, List<String> topics)
      throws Exception {
    return new ArrayList<>(
        admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS).values());
  }
}
