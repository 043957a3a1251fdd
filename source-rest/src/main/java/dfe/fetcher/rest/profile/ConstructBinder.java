package dfe.fetcher.rest.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.rest.construct.ConstructType;
import dfe.fetcher.rest.construct.Constructs;
import dfe.fetcher.rest.construct.Keyset;
import dfe.fetcher.rest.construct.Lookup;
import dfe.fetcher.rest.construct.Manifest;
import dfe.fetcher.rest.construct.Prelude;
import dfe.fetcher.rest.construct.Queue;
import dfe.fetcher.rest.construct.SecondStage;
import dfe.fetcher.rest.page.JsonPointerSetting;
import dfe.fetcher.rest.shape.FoldType;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds an endpoint's {@code prelude} and {@code construct} (its own, or the profile's defaults'
 * when it sets none; {@code prelude: []} and {@code construct: {}} drop the defaults'). Each
 * construct {@link ConstructType} registers is bound by its case here; every problem is reported at
 * its config path: an unknown construct, two second stages, a keyset with both or neither of {@code
 * from} and {@code request}, {@code keys_at} without a request, a {@code from} that yields no list
 * with the instance's vars, {@code key} without {@code position}, an item checkpoint where nothing
 * can commit it (a dump) or where items are not in one order (beside a keyset), a queue on a dump
 * or beside a keyset, without {@code ack_at} or {@code ack_request}, or whose acknowledgement's
 * body reads no {@code ack_ids}.
 */
final class ConstructBinder {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final EndpointBinder requests;
  private final TemplateBinder templates;

  ConstructBinder(EndpointBinder requests, TemplateBinder templates) {
    this.requests = requests;
    this.templates = templates;
  }

  /**
   * Whether {@code owner}'s {@code construct} sets a keyset: its templates then read {@code key}.
   */
  static boolean hasKeyset(Section owner) {
    return owner.node("construct").orElse(null) instanceof YamlNode.Mapping mapping
        && mapping.entries().stream().anyMatch(entry -> entry.key().equals("keyset"));
  }

  /** Whether {@code owner}'s {@code construct} sets a queue: the endpoint then reads no window. */
  static boolean hasQueue(Section owner) {
    return owner.node("construct").orElse(null) instanceof YamlNode.Mapping mapping
        && mapping.entries().stream()
            .anyMatch(entry -> entry.key().equals(ConstructType.QUEUE.configName()));
  }

  /**
   * @param constructOwner the section whose {@code construct} holds (the endpoint or the defaults)
   * @param preludeOwner the section whose {@code prelude} holds
   * @param scope what the endpoint's templates read (with {@code key} under a keyset)
   */
  Constructs bind(
      Section constructOwner,
      Section preludeOwner,
      EndpointBinder.Parent parent,
      TemplateScope scope) {
    List<Prelude> prelude = prelude(preludeOwner, parent);
    if (constructOwner.node("construct").isEmpty()) {
      return new Constructs(prelude, Optional.empty(), Optional.empty(), Optional.empty());
    }
    Section construct = constructOwner.section("construct", ProfileKeys.CONSTRUCT_KEYS);
    Optional<Keyset> keyset = Optional.empty();
    Optional<SecondStage> second = Optional.empty();
    Optional<Queue> queue = Optional.empty();
    Optional<FoldType> fold = Optional.empty();
    List<String> stages = new ArrayList<>();
    for (ConstructType type : ConstructType.values()) {
      if (construct.node(type.configName()).isEmpty()) {
        continue;
      }
      if (type.exclusive()) {
        stages.add(type.configName());
      }
      switch (type) {
        case KEYSET -> keyset = Optional.of(keyset(section(construct, type), parent));
        case LOOKUP ->
            second = lookup(section(construct, type), parent, scope).map(SecondStage.class::cast);
        case MANIFEST ->
            second =
                manifest(section(construct, type), parent, scope, construct)
                    .map(SecondStage.class::cast);
        case QUEUE -> queue = queue(section(construct, type), parent, scope, construct);
        case FOLD -> fold = fold(construct);
      }
    }
    if (fold.isPresent() && queue.isPresent()) {
      construct.report(
          ConstructType.FOLD.configName(),
          "does not combine with construct.queue: a pull's messages are acknowledged as their"
              + " own rows land, not as a fold of them");
    }
    if (fold.isPresent()
        && second
            .filter(Manifest.class::isInstance)
            .map(m -> ((Manifest) m).checkpoints())
            .orElse(false)) {
      construct.report(
          ConstructType.FOLD.configName(),
          "does not combine with a manifest's key and position: a folded row is no one item's,"
              + " so no item checkpoint could be committed for it");
    }
    if (stages.size() > 1) {
      construct.report(
          stages.get(1),
          "beside "
              + stages.get(0)
              + ": an endpoint takes at most one of "
              + String.join(
                  ", ",
                  java.util.Arrays.stream(ConstructType.values())
                      .filter(ConstructType::exclusive)
                      .map(ConstructType::configName)
                      .toList())
              + " (a keyset may go beside a lookup or a manifest)");
    }
    return new Constructs(prelude, keyset, second, queue, fold);
  }

  private static Section section(Section construct, ConstructType type) {
    return construct.section(type.configName(), type.keys());
  }

  /** {@code fold}: a word naming the fold; empty (reported) when it names none. */
  private static Optional<FoldType> fold(Section construct) {
    String key = ConstructType.FOLD.configName();
    Optional<String> name = construct.string(key);
    if (name.isEmpty()) {
      construct.report(key, "must name a fold: one of " + String.join(", ", FoldType.names()));
      return Optional.empty();
    }
    Optional<FoldType> fold = FoldType.named(name.get());
    if (fold.isEmpty()) {
      construct.report(
          key, "unknown fold '" + name.get() + "'; one of " + String.join(", ", FoldType.names()));
    }
    return fold;
  }

  /** What a prelude's and a keyset's templates read: the connection's vars and the unit's name. */
  private TemplateScope once(String what) {
    return templates
        .scope(false)
        .windowlessBecause(
            "which " + what + " does not read: it is sent once per tick, before any window");
  }

  private List<Prelude> prelude(Section owner, EndpointBinder.Parent parent) {
    List<Prelude> prelude = new ArrayList<>();
    Optional<List<YamlNode>> items = owner.list("prelude");
    if (items.isEmpty() || items.get().isEmpty()) {
      // prelude: [] drops the defaults' prelude.
      return prelude;
    }
    for (Section request :
        owner.requiredSections("prelude", "request", ConstructType.PRELUDE_KEYS)) {
      prelude.add(
          new Prelude(
              requests.request(
                  request, parent, once("a prelude"), "POST", false, Map.of(), Optional.empty())));
    }
    return prelude;
  }

  private Keyset keyset(Section keyset, EndpointBinder.Parent parent) {
    boolean from = keyset.node("from").isPresent();
    boolean request = keyset.node("request").isPresent();
    if (from == request) {
      keyset.report(
          keyset.origin(),
          keyset.path(),
          from
              ? "takes one of from and request, not both"
              : "needs from (a template yielding the keys) or request (with keys_at)");
    }
    Optional<BodyTemplate> template = Optional.empty();
    if (from) {
      YamlNode node = keyset.node("from").get();
      template = templates.body(node, keyset.pathOf("from"), once("a keyset"), keyset);
      template.ifPresent(t -> tryKeys(keyset, t, parent.unit()));
      if (keyset.node("keys_at").isPresent()) {
        keyset.report("keys_at", "applies with request only: it points into request's answer");
      }
    }
    Optional<Endpoint> sent = Optional.empty();
    Optional<String> keysAt = Optional.empty();
    if (request && !from) {
      Section section = keyset.section("request", ConstructType.PRELUDE_KEYS);
      sent =
          Optional.of(
              requests.request(
                  section, parent, once("a keyset"), "GET", false, Map.of(), Optional.empty()));
      if (keyset.require("keys_at")) {
        keysAt = JsonPointerSetting.read(keyset, "keys_at");
      }
    }
    return new Keyset(template, sent, keysAt, keyset.path());
  }

  /** {@code from} rendered with the instance's vars must yield a list, or a string holding one. */
  private void tryKeys(Section keyset, BodyTemplate from, String unit) {
    TemplateValues values = TemplateValues.of(templates.vars(), unit);
    if (!from.names().stream().allMatch(values::has)) {
      return;
    }
    try {
      JsonNode keys = JSON.readTree(from.render(values));
      if (keys.isTextual()) {
        try {
          keys = JSON.readTree(keys.asText());
        } catch (IOException e) {
          keys = null;
        }
      }
      if (keys == null || !keys.isArray()) {
        keyset.report(
            "from",
            "yields no list with the instance's vars; yield a list, e.g. {{"
                + " vars.crates.split(',') }}, or a string holding a JSON array");
      }
    } catch (TemplateException e) {
      keyset.report("from", e.getMessage() + " (with the instance's vars)");
    } catch (IOException e) {
      throw new IllegalStateException("a rendered template is JSON", e);
    }
  }

  /** The lookup; empty (reported) without its request. */
  private Optional<Lookup> lookup(
      Section lookup, EndpointBinder.Parent parent, TemplateScope scope) {
    Optional<String> idAt = JsonPointerSetting.read(lookup, "id_at");
    int batch = lookup.smallInteger("batch", Lookup.DEFAULT_BATCH, 1, 100_000);
    if (!lookup.require("request")) {
      return Optional.empty();
    }
    Section request = lookup.section("request", ConstructType.REQUEST_KEYS);
    Endpoint bound =
        requests.request(
            request,
            parent,
            scope.withValue("ids", ListType.create(SimpleType.DYN)),
            "POST",
            true,
            parent.vars(),
            Optional.empty());
    if (!bound.placeholders().contains("ids")) {
      lookup.report(
          "request",
          "reads no {{ ids }}, so every batch would be the same request; send the batch, e.g."
              + " body: {ids: \"{{ ids }}\"}");
    }
    return Optional.of(new Lookup(idAt, batch, bound, lookup.path()));
  }

  /** The manifest; empty (reported) without its item request. */
  private Optional<Manifest> manifest(
      Section manifest, EndpointBinder.Parent parent, TemplateScope scope, Section construct) {
    TemplateScope items = scope.withValue("item", SimpleType.DYN);
    int maxItems = manifest.smallInteger("max_items", Manifest.DEFAULT_MAX_ITEMS, 1, 1_000_000);
    Optional<BodyTemplate> addFields = RowShapeBinder.addFields(manifest, items, templates);
    if (!manifest.require("item_request")) {
      return Optional.empty();
    }
    Section request = manifest.section("item_request", ConstructType.REQUEST_KEYS);
    Endpoint bound =
        requests.request(request, parent, items, "GET", true, parent.vars(), addFields);
    Optional<Template> key = templates.template(manifest, "key", items, false);
    Optional<Template> position = templates.template(manifest, "position", items, false);
    boolean hasKey = manifest.node("key").isPresent();
    boolean hasPosition = manifest.node("position").isPresent();
    if (hasKey != hasPosition) {
      manifest.report(
          hasKey ? "key" : "position",
          "is set without " + (hasKey ? "position" : "key") + "; an item checkpoint needs both");
    }
    if (hasKey || hasPosition) {
      String at = hasKey ? "key" : "position";
      if (parent.shape() == Shape.DUMP) {
        manifest.report(at, "applies to shape: tail only; a dump commits no checkpoint");
      } else if (construct.node("keyset").isPresent()) {
        manifest.report(
            at,
            "does not combine with construct.keyset: the items of several keys are in no one"
                + " order to resume in");
      }
    }
    return Optional.of(new Manifest(bound, maxItems, key, position, manifest.path()));
  }

  /** The queue; empty (reported) without its ack pointer or its ack request. */
  private Optional<Queue> queue(
      Section queue, EndpointBinder.Parent parent, TemplateScope scope, Section construct) {
    String name = ConstructType.QUEUE.configName();
    if (parent.shape() == Shape.DUMP) {
      construct.report(
          name,
          "applies to shape: tail only: a queue is pulled from and acknowledged, never listed"
              + " whole as a dump");
    }
    if (construct.node(ConstructType.KEYSET.configName()).isPresent()) {
      construct.report(
          name,
          "does not combine with construct.keyset: a queue unit pulls from one queue and"
              + " acknowledges there; give each subscription its own unit");
    }
    Optional<String> ackAt =
        queue.require("ack_at") ? JsonPointerSetting.read(queue, "ack_at") : Optional.empty();
    int batch = queue.smallInteger("ack_batch", Queue.DEFAULT_ACK_BATCH, 1, Queue.MAX_ACK_BATCH);
    if (!queue.require("ack_request")) {
      return Optional.empty();
    }
    Section request = queue.section("ack_request", ConstructType.PRELUDE_KEYS);
    Endpoint bound =
        requests.request(
            request,
            parent,
            scope.withValue("ack_ids", ListType.create(SimpleType.DYN)),
            "POST",
            false,
            parent.vars(),
            Optional.empty());
    String send = "send them, e.g. body: {ackIds: \"{{ ack_ids }}\"}";
    if (request.node("body").isEmpty()) {
      queue.report("ack_request", "has no body, so no message would be acknowledged; " + send);
    } else if (bound.body().filter(body -> !body.names().contains("ack_ids")).isPresent()) {
      request.report(
          "body", "reads no {{ ack_ids }}, so no message would be acknowledged; " + send);
    }
    return ackAt.map(pointer -> new Queue(pointer, batch, bound, queue.path()));
  }
}
