package dfe.fetcher.connect;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Label;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's fetcher metrics (the standalone service's Prometheus series) as one JMX bean, {@code
 * dfe.fetcher:type=connect-task,connector=<name>,task=<n>}, next to Connect's own task metrics.
 * Each series is a read-only attribute named as the exposition format names it, e.g. {@code
 * dfe_fetcher_snapshots_total{store="inv.hosts",status="complete"}}; histograms give their {@code
 * _count} and {@code _sum}. Values are read from the registry when asked.
 */
final class TaskMetricsBean implements DynamicMBean {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.connect");
  private static final AtomicInteger TASKS = new AtomicInteger();

  private final PrometheusRegistry registry;
  private final ObjectName name;

  private TaskMetricsBean(PrometheusRegistry registry, ObjectName name) {
    this.registry = registry;
    this.name = name;
  }

  /**
   * Registers the bean of a task of {@code connector}; empty when JMX refuses it (logged), since
   * metrics must not stop a task. The number tells tasks of one connector apart in one JVM.
   */
  static Optional<TaskMetricsBean> register(PrometheusRegistry registry, String connector) {
    try {
      ObjectName name =
          new ObjectName(
              "dfe.fetcher:type=connect-task,connector="
                  + ObjectName.quote(connector)
                  + ",task="
                  + TASKS.incrementAndGet());
      TaskMetricsBean bean = new TaskMetricsBean(registry, name);
      ManagementFactory.getPlatformMBeanServer().registerMBean(bean, name);
      return Optional.of(bean);
    } catch (JMException | RuntimeException e) {
      LOG.warn("event=task_metrics_not_registered error=\"{}\"", e.getClass().getSimpleName());
      return Optional.empty();
    }
  }

  ObjectName name() {
    return name;
  }

  void unregister() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
    } catch (JMException e) {
      LOG.warn("event=task_metrics_not_unregistered error=\"{}\"", e.getClass().getSimpleName());
    }
  }

  /** Every series now, by attribute name. */
  private Map<String, Double> values() {
    Map<String, Double> values = new LinkedHashMap<>();
    for (MetricSnapshot snapshot : registry.scrape()) {
      String metric = snapshot.getMetadata().getPrometheusName();
      for (DataPointSnapshot point : snapshot.getDataPoints()) {
        String labels = labels(point);
        if (snapshot instanceof CounterSnapshot) {
          values.put(
              metric + "_total" + labels,
              ((CounterSnapshot.CounterDataPointSnapshot) point).getValue());
        } else if (snapshot instanceof GaugeSnapshot) {
          values.put(metric + labels, ((GaugeSnapshot.GaugeDataPointSnapshot) point).getValue());
        } else if (snapshot instanceof HistogramSnapshot) {
          HistogramSnapshot.HistogramDataPointSnapshot histogram =
              (HistogramSnapshot.HistogramDataPointSnapshot) point;
          values.put(metric + "_count" + labels, (double) histogram.getCount());
          values.put(metric + "_sum" + labels, histogram.getSum());
        }
      }
    }
    return values;
  }

  private static String labels(DataPointSnapshot point) {
    if (point.getLabels().isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("{");
    for (Label label : point.getLabels()) {
      if (out.length() > 1) {
        out.append(',');
      }
      out.append(label.getName()).append("=\"").append(label.getValue()).append('"');
    }
    return out.append('}').toString();
  }

  @Override
  public Object getAttribute(String attribute) throws AttributeNotFoundException {
    Double value = values().get(attribute);
    if (value == null) {
      throw new AttributeNotFoundException(attribute);
    }
    return value;
  }

  @Override
  public void setAttribute(Attribute attribute) {
    throw new UnsupportedOperationException("the fetcher's metrics are read-only");
  }

  @Override
  public AttributeList getAttributes(String[] attributes) {
    Map<String, Double> values = values();
    AttributeList list = new AttributeList();
    for (String attribute : attributes) {
      Double value = values.get(attribute);
      if (value != null) {
        list.add(new Attribute(attribute, value));
      }
    }
    return list;
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String actionName, Object[] params, String[] signature) {
    throw new UnsupportedOperationException("no operations");
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    MBeanAttributeInfo[] attributes =
        values().keySet().stream()
            .map(
                attribute ->
                    new MBeanAttributeInfo(
                        attribute, "java.lang.Double", attribute, true, false, false))
            .toArray(MBeanAttributeInfo[]::new);
    return new MBeanInfo(
        TaskMetricsBean.class.getName(),
        "dfe-fetcher metrics of one Connect task",
        attributes,
        null,
        null,
        null);
  }
}
