package dfe.fetcher.rest.profile;

import dev.cel.common.types.SimpleType;
import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.RowFilter;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.rest.auth.UnitAuth;
import dfe.fetcher.rest.construct.Constructs;
import dfe.fetcher.rest.http.ErrorPolicy;
import dfe.fetcher.rest.page.Decoder;
import dfe.fetcher.rest.page.JsonPointerSetting;
import dfe.fetcher.rest.page.ListerType;
import dfe.fetcher.rest.page.Pager;
import dfe.fetcher.rest.shape.RowShape;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Binds the units of a {@link UnitPlan}, each from its endpoint, its templates reading the unit's
 * own {@code vars} over the connection's, with the instance's overrides under {@code units}
 * applied: method and body, path, query and headers as templates, the decoder, the pager, the
 * bounds, {@code fail_when}, the error policy ({@code errors}, over the profile's), and a tail
 * endpoint's window.
 */
final class EndpointBinder {

  private final Section connection;
  private final BindContext context;
  private final TemplateBinder templates;
  private final Section defaults;
  private final Map<String, UnitAuth> unitAuth;
  private final Map<String, String> unitVars;

  private static final String QUEUE_READS_NO_WINDOW =
      "which a queue unit does not have: it reads no window (the provider keeps what is not"
          + " acknowledged)";

  /**
   * @param defaults the profile's {@code defaults}: a setting an endpoint leaves out is read there,
   *     and its {@code vars}, {@code query} and {@code headers} are merged under the endpoint's
   */
  EndpointBinder(
      Section connection, BindContext context, TemplateBinder templates, Section defaults) {
    this(connection, context, templates, defaults, new LinkedHashMap<>(), Map.of());
  }

  private EndpointBinder(
      Section connection,
      BindContext context,
      TemplateBinder templates,
      Section defaults,
      Map<String, UnitAuth> unitAuth,
      Map<String, String> unitVars) {
    this.connection = connection;
    this.context = context;
    this.templates = templates;
    this.defaults = defaults;
    this.unitAuth = unitAuth;
    this.unitVars = unitVars;
  }

  /** Where {@code key} is read for {@code endpoint}: the endpoint, or else the defaults. */
  private Section from(Section endpoint, String key) {
    return endpoint.node(key).isPresent() || defaults.node(key).isEmpty() ? endpoint : defaults;
  }

  /** What each endpoint bound so far asks of the instance's credentials ({@code auth}). */
  Map<String, UnitAuth> unitAuth() {
    return unitAuth;
  }

  /** Each unit of {@code plan}, bound from its endpoint with its own variables. */
  List<Endpoint> bind(Section profile, UnitPlan plan) {
    ErrorPolicyBinder.Settings profileErrors =
        ErrorPolicyBinder.profile(profile.section("errors", ProfileKeys.ERRORS_KEYS));
    List<Endpoint> bound = new ArrayList<>();
    for (UnitPlan.Unit unit : plan.units()) {
      EndpointBinder forUnit =
          new EndpointBinder(
              connection, context, templates.forUnit(unit.vars()), defaults, unitAuth, unit.vars());
      bound.add(forUnit.endpoint(unit, profileErrors));
    }
    return bound;
  }

  private Endpoint endpoint(UnitPlan.Unit planned, ErrorPolicyBinder.Settings profileErrors) {
    Section endpoint = planned.endpoint();
    String unit = planned.name();
    Section override =
        planned
            .override()
            .orElseGet(
                () ->
                    Section.of(
                        Optional.empty(),
                        endpoint.origin(),
                        Section.join(connection.pathOf("units"), unit),
                        ProfileKeys.UNIT_KEYS,
                        context.problems()));
    boolean enabled = override.bool("enabled", true);
    unitAuth.put(unit, UnitAuthBinder.bind(endpoint));
    Shape shape = endpoint.shape("shape");
    boolean tail = shape == Shape.TAIL;
    Section constructOwner = from(endpoint, "construct");
    boolean queue = tail && ConstructBinder.hasQueue(constructOwner);
    TemplateScope base =
        queue
            ? templates.scope(false).windowlessBecause(QUEUE_READS_NO_WINDOW)
            : templates.scope(tail);
    if (ConstructBinder.hasKeyset(constructOwner)) {
      base = base.withValue("key", SimpleType.DYN);
    }
    TemplateBinder.Computed computed = templates.computed(List.of(defaults, endpoint), base);
    TemplateScope scope = computed.scope();
    String method = endpoint.string("method", "GET");
    if (!method.equals("GET") && !method.equals("POST")) {
      endpoint.report("method", "unknown method '" + method + "'; one of GET, POST");
    }
    Optional<BodyTemplate> body = body(endpoint, method, scope);
    Optional<Template> written = templates.template(endpoint, "path", scope, true);
    Template path = written.orElse(Template.literal(""));
    if (endpoint
        .string("path")
        .filter(p -> !p.isEmpty() && !p.startsWith("/") && !p.startsWith("{{"))
        .isPresent()) {
      endpoint.report("path", "must start with '/' (it is appended to base_url)");
    }
    written
        .flatMap(template -> UriPathCheck.problem(template.text()))
        .ifPresent(problem -> endpoint.report("path", problem));
    Map<String, Template> query = new LinkedHashMap<>();
    templates.putEach(defaults, "query", scope, query);
    templates.putEach(endpoint, "query", scope, query);
    templates.putEach(override, "query", scope, query);
    Map<String, Template> headers = new LinkedHashMap<>(templates.headers(defaults, scope));
    headers.putAll(templates.headers(endpoint, scope));
    Optional<ListerType> lister = lister(endpoint);
    Decoder decoder;
    Optional<String> rowsAt = Optional.empty();
    boolean rowsMayBeAbsent = false;
    boolean gzip = false;
    RowShape rowShape = RowShape.NONE;
    Pager pager;
    if (lister.isPresent()) {
      // The lister reads the listing's pages and follows them: the objects' rows are the
      // manifest's item_request.rows.
      for (String key : List.of("rows", "paginate")) {
        if (endpoint.node(key).isPresent()) {
          endpoint.report(
              key,
              "does not apply beside lister: "
                  + lister.get().configName()
                  + ", which reads the store's listing and follows its pages; the objects' rows"
                  + " are construct.manifest.item_request.rows");
        }
      }
      decoder = lister.get().decoder();
      pager = lister.get().pager();
    } else {
      Section rows = from(endpoint, "rows").section("rows", ProfileKeys.ROWS_KEYS);
      decoder = decoder(from(endpoint, "rows"), rows);
      rowsAt = JsonPointerSetting.read(rows, "at");
      checkJsonAtKeys(rows, decoder, rowsAt.isPresent());
      rowsMayBeAbsent = rows.bool("allow_missing", false);
      gzip = rows.bool("gzip", false);
      rowShape = RowShapeBinder.bind(rows, decoder, scope, templates);
      Section paging = from(endpoint, "paginate");
      Section paginate = paging.section("paginate", ProfileKeys.PAGINATE_KEYS);
      pager = PagerBinder.bind(paginate, paging);
      if (pager.readsBody()) {
        refuseStreamed(paging, "paginate", decoder);
      }
      if (decoder == Decoder.JSON_AT && rowsAt.isPresent()) {
        refuseIntoRows(paginate, pager, rowsAt.get());
      }
      if (pager.writesBody() && !method.equals("POST")) {
        paginate.report(
            "into", "body: applies to method: POST only (a GET has no body to carry the cursor)");
      }
    }
    Optional<String> rowKey = from(endpoint, "row_key").rowKey("row_key");
    int maxPages =
        override.smallInteger(
            "max_pages",
            from(endpoint, "max_pages")
                .smallInteger("max_pages", Endpoint.DEFAULT_MAX_PAGES, 1, 100_000),
            1,
            100_000);
    long maxPageBytes =
        override.integer(
            "max_page_bytes",
            from(endpoint, "max_page_bytes")
                .integer(
                    "max_page_bytes",
                    Endpoint.DEFAULT_MAX_PAGE_BYTES,
                    1_024,
                    Integer.MAX_VALUE - 8),
            1_024,
            Integer.MAX_VALUE - 8);
    int timeout =
        override.smallInteger(
            "timeout_secs",
            from(endpoint, "timeout_secs")
                .smallInteger("timeout_secs", Endpoint.DEFAULT_TIMEOUT_SECS, 1, 3_600),
            1,
            3_600);
    Section failing = from(endpoint, "fail_when");
    Optional<String> failWhen = failing.string("fail_when");
    failWhen.ifPresent(condition -> checkFailWhen(failing, condition, decoder));
    Optional<String> errorAt = JsonPointerSetting.read(from(endpoint, "error_at"), "error_at");
    ErrorPolicyBinder.Settings errorSettings =
        ErrorPolicyBinder.settings(
            profileErrors, endpoint.section("errors", ProfileKeys.ERRORS_KEYS), method);
    ErrorPolicy errors = errorSettings.policy();
    Optional<WindowSpec> window = window(endpoint, override, tail, queue);
    Parent parent =
        new Parent(
            unit,
            enabled,
            shape,
            headers,
            rowKey,
            maxPageBytes,
            timeout,
            errorAt,
            errorSettings,
            window,
            computed.vars(),
            unitVars);
    Constructs constructs =
        new ConstructBinder(this, templates)
            .bind(constructOwner, from(endpoint, "prelude"), parent, scope);
    if (constructs.second().isPresent()) {
      rowShape = rowShape.feedingAConstruct();
    }
    if (lister.isEmpty() && constructs.queue().isPresent() && !pager.equals(Pager.none())) {
      from(endpoint, "paginate")
          .report(
              "paginate",
              "does not combine with construct.queue: a pull is one request, and the unit pulls"
                  + " again (up to max_pages a tick) instead of paging; leave paginate out");
    }
    if (lister.isPresent()) {
      constructs = ListerBinder.bind(endpoint, lister.get(), constructs);
    }
    if (!constructs.isEmpty()
        && (constructs.keyset().isPresent() || constructs.second().isPresent())
        && (window.flatMap(WindowSpec::positionAt).isPresent()
            || window.flatMap(WindowSpec::cursorAt).isPresent())) {
      endpoint.report(
          endpoint.originOf("window"),
          endpoint.pathOf("window")
              + (window.flatMap(WindowSpec::positionAt).isPresent()
                  ? ".position_at"
                  : ".cursor_at"),
          "does not combine with construct.keyset, construct.lookup or construct.manifest: the"
              + " rows that land are not the listing's, in its order; leave it out (a manifest's"
              + " key and position give each item a checkpoint instead)");
    }
    Endpoint bound =
        new Endpoint(
            unit,
            enabled,
            shape,
            method,
            body,
            path,
            query,
            headers,
            decoder,
            rowsAt,
            rowsMayBeAbsent,
            gzip,
            rowShape,
            rowKey,
            pager,
            maxPages,
            maxPageBytes,
            timeout,
            failWhen,
            errorAt,
            errors,
            window,
            computed.vars(),
            unitVars,
            constructs,
            lister,
            endpoint.originOf("unit"),
            endpoint.pathOf("unit"));
    templates.tryRendering(bound, endpoint);
    Set<String> read = bound.placeholders();
    // A record-field cursor needs no time filter: it tells what is new by the records' own time.
    if (window.isPresent()
        && lister.isEmpty()
        && window.get().cursorAt().isEmpty()
        && !read.contains("window.start")
        && !read.contains("window.end")) {
      endpoint.report(
          "window",
          "no request of this tail endpoint reads {{ window.start }} or {{ window.end }} (path,"
              + " query, headers, body), so every window would fetch the same listing; filter by"
              + " them, or make it shape: dump");
    }
    return bound;
  }

  /**
   * What a construct's request takes from its endpoint: the unit, the endpoint's headers (its own
   * go over them), row key, bounds, error text pointer, error settings (its own {@code errors} go
   * over them), window and computed variables.
   */
  record Parent(
      String unit,
      boolean enabled,
      Shape shape,
      Map<String, Template> headers,
      Optional<String> rowKey,
      long maxPageBytes,
      int timeoutSecs,
      Optional<String> errorAt,
      ErrorPolicyBinder.Settings errors,
      Optional<WindowSpec> window,
      Map<String, Template> vars,
      Map<String, String> unitVars) {}

  /**
   * A construct's request (a prelude's, the keyset's, a lookup's, a manifest item's), bound as an
   * endpoint of its own at {@code request}: {@code method} ({@code defaultMethod} when left out),
   * {@code path} (required), {@code query}, {@code headers}, {@code body}, {@code errors}, and when
   * {@code takesRows} its own {@code rows} (required), {@code paginate} and {@code max_pages};
   * otherwise its answer is one {@code document} of one page. Its templates compile in {@code
   * scope}, and read {@code vars} as computed variables.
   *
   * @param addFields fields added to its rows beside its {@code rows.add_fields} (a manifest's)
   */
  Endpoint request(
      Section request,
      Parent parent,
      TemplateScope scope,
      String defaultMethod,
      boolean takesRows,
      Map<String, Template> vars,
      Optional<BodyTemplate> addFields) {
    String method = request.string("method", defaultMethod);
    if (!method.equals("GET") && !method.equals("POST")) {
      request.report("method", "unknown method '" + method + "'; one of GET, POST");
    }
    Optional<BodyTemplate> body = body(request, method, scope);
    Optional<Template> written = templates.template(request, "path", scope, true);
    if (request
        .string("path")
        .filter(p -> !p.isEmpty() && !p.startsWith("/") && !p.startsWith("{{"))
        .isPresent()) {
      request.report("path", "must start with '/' (it is appended to base_url)");
    }
    written
        .flatMap(template -> UriPathCheck.problem(template.text()))
        .ifPresent(problem -> request.report("path", problem));
    Map<String, Template> query = new LinkedHashMap<>();
    templates.putEach(request, "query", scope, query);
    Map<String, Template> headers = new LinkedHashMap<>(parent.headers());
    headers.putAll(templates.headers(request, scope));
    Decoder decoder = Decoder.DOCUMENT;
    Optional<String> rowsAt = Optional.empty();
    boolean rowsMayBeAbsent = false;
    boolean gzip = false;
    RowShape rowShape = RowShape.NONE;
    Pager pager = Pager.none();
    int maxPages = 1;
    if (takesRows) {
      Section rows = request.section("rows", ProfileKeys.ROWS_KEYS);
      decoder = decoder(request, rows);
      rowsAt = JsonPointerSetting.read(rows, "at");
      checkJsonAtKeys(rows, decoder, rowsAt.isPresent());
      rowsMayBeAbsent = rows.bool("allow_missing", false);
      gzip = rows.bool("gzip", false);
      rowShape = RowShapeBinder.bind(rows, decoder, scope, templates);
      if (addFields.isPresent()) {
        if (rowShape.addFields().isPresent()) {
          rows.report(
              "add_fields",
              "is set beside the construct's add_fields; set the fields in one place");
        } else {
          rowShape =
              new RowShape(rowShape.quoted(), rowShape.builder(), rowShape.field(), addFields);
        }
      }
      Section paginate = request.section("paginate", ProfileKeys.PAGINATE_KEYS);
      pager = PagerBinder.bind(paginate, request);
      if (pager.readsBody()) {
        refuseStreamed(request, "paginate", decoder);
      }
      if (decoder == Decoder.JSON_AT && rowsAt.isPresent()) {
        refuseIntoRows(paginate, pager, rowsAt.get());
      }
      if (pager.writesBody() && !method.equals("POST")) {
        paginate.report(
            "into", "body: applies to method: POST only (a GET has no body to carry the cursor)");
      }
      maxPages = request.smallInteger("max_pages", Endpoint.DEFAULT_MAX_PAGES, 1, 100_000);
    }
    ErrorPolicy errors =
        ErrorPolicyBinder.settings(
                parent.errors(), request.section("errors", ProfileKeys.ERRORS_KEYS), method)
            .policy();
    Endpoint bound =
        new Endpoint(
            parent.unit(),
            parent.enabled(),
            parent.shape(),
            method,
            body,
            written.orElse(Template.literal("")),
            query,
            headers,
            decoder,
            rowsAt,
            rowsMayBeAbsent,
            gzip,
            rowShape,
            parent.rowKey(),
            pager,
            maxPages,
            parent.maxPageBytes(),
            parent.timeoutSecs(),
            Optional.empty(),
            parent.errorAt(),
            errors,
            parent.window(),
            vars,
            parent.unitVars(),
            Constructs.NONE,
            Optional.empty(),
            request.origin(),
            request.path());
    templates.tryRendering(bound, request);
    return bound;
  }

  private Optional<BodyTemplate> body(Section endpoint, String method, TemplateScope scope) {
    if (endpoint.node("body").isPresent()) {
      YamlNode node = endpoint.node("body").get();
      if (!method.equals("POST")) {
        endpoint.report("body", "applies to method: POST only");
      } else if (node instanceof YamlNode.Scalar) {
        endpoint.report("body", "must be a mapping or a list: the JSON body, written in YAML");
      } else {
        return templates.body(node, endpoint.pathOf("body"), scope, endpoint);
      }
    }
    return Optional.empty();
  }

  /** {@code lister}: a word {@link ListerType} registers, when set. */
  private static Optional<ListerType> lister(Section endpoint) {
    Optional<String> name = endpoint.string("lister");
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Optional<ListerType> named = ListerType.named(name.get());
    if (named.isEmpty()) {
      endpoint.report(
          "lister",
          "unknown lister '" + name.get() + "'; one of " + String.join(", ", ListerType.names()));
      // Reported: bound as the first lister, so what a lister's endpoint leaves out is no noise.
      return Optional.of(ListerType.values()[0]);
    }
    return named;
  }

  private static Decoder decoder(Section endpoint, Section rows) {
    if (endpoint.require("rows") && rows.require("decoder")) {
      String name = rows.string("decoder").orElse("json_array");
      Optional<Decoder> named = Decoder.named(name);
      if (named.isPresent()) {
        return named.get();
      } else {
        rows.report(
            "decoder",
            "unknown decoder '" + name + "'; one of " + String.join(", ", Decoder.names()));
      }
    }
    return Decoder.JSON_ARRAY;
  }

  private static void checkFailWhen(Section endpoint, String condition, Decoder decoder) {
    refuseStreamed(endpoint, "fail_when", decoder);
    try {
      RowFilter.compile(condition);
    } catch (FilterCompileException e) {
      endpoint.report("fail_when", "does not compile: " + e.getMessage());
    }
  }

  /**
   * A pager's pointer into {@code json_at}'s rows array is refused: the rows are streamed, and the
   * tree the pager reads is the body without them.
   */
  private static void refuseIntoRows(Section paginate, Pager pager, String rowsAt) {
    pager
        .bodyPointers()
        .forEach(
            (key, pointer) -> {
              String at = pointer.startsWith("body:") ? pointer.substring(5) : pointer;
              if (at.equals(rowsAt) || at.startsWith(rowsAt + "/") || rowsAt.isEmpty()) {
                paginate.report(
                    key,
                    "points into the rows array at "
                        + (rowsAt.isEmpty() ? "the root" : rowsAt)
                        + " (rows.at), which json_at streams and does not keep; point to a"
                        + " value beside the rows");
              }
            });
  }

  /** {@code key} reads the page's body: refused when {@code decoder} does not keep it. */
  private static void refuseStreamed(Section endpoint, String key, Decoder decoder) {
    if (!decoder.keepsBody()) {
      endpoint.report(
          key,
          "reads the page's body, which decoder "
              + decoder.configName()
              + " streams and does not hold; use json_at or document");
    }
  }

  private static Optional<WindowSpec> window(
      Section endpoint, Section override, boolean tail, boolean queue) {
    if (queue) {
      if (endpoint.node("window").isPresent()) {
        endpoint.report(
            "window",
            "does not apply with construct.queue: a queue unit reads no window and commits no"
                + " checkpoint (the provider keeps what is not acknowledged); leave it out");
      }
      for (String key : List.of("lookback", "settle")) {
        if (override.node(key).isPresent()) {
          override.report(key, "does not apply to a queue unit, which reads no window");
        }
      }
      return Optional.empty();
    }
    if (tail) {
      if (endpoint.require("window")) {
        return Optional.of(
            WindowBinder.bind(endpoint.section("window", ProfileKeys.WINDOW_KEYS), override));
      }
    } else {
      if (endpoint.node("window").isPresent()) {
        endpoint.report("window", "applies to shape: tail only");
      }
      for (String key : List.of("lookback", "settle")) {
        if (override.node(key).isPresent()) {
          override.report(key, "applies to tail units only");
        }
      }
    }
    return Optional.empty();
  }

  /** {@code at} is json_at's, and json_at needs it; {@code allow_missing} is json_at's too. */
  private static void checkJsonAtKeys(Section rows, Decoder decoder, boolean atRead) {
    if (decoder == Decoder.JSON_AT && !atRead && rows.node("at").isEmpty()) {
      rows.report("at", "json_at needs the JSON pointer of the rows, e.g. at: /items");
    }
    for (String key : List.of("at", "allow_missing")) {
      if (decoder != Decoder.JSON_AT && rows.node(key).isPresent()) {
        rows.report(key, "applies to decoder json_at only");
      }
    }
  }
}
