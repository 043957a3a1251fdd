package dfe.fetcher.rest.profile;

import dfe.fetcher.core.row.Shape;
import dfe.fetcher.rest.construct.Constructs;
import dfe.fetcher.rest.http.ErrorPolicy;
import dfe.fetcher.rest.page.Decoder;
import dfe.fetcher.rest.page.ListerType;
import dfe.fetcher.rest.page.Pager;
import dfe.fetcher.rest.shape.RowShape;
import dfe.fetcher.source.config.ConfigOrigin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One endpoint of a profile, as an instance runs it (its overrides applied).
 *
 * @param unit the unit's name
 * @param enabled false keeps it configured but never run
 * @param shape {@code dump} ({@link Shape#DUMP}) or {@code tail} ({@link Shape#TAIL})
 * @param method GET, or POST with {@code body}
 * @param body the JSON body of a POST, its strings templates
 * @param path appended to {@code base_url}
 * @param query query parameters, values templates, in order
 * @param headers headers beside the profile's, values templates
 * @param decoder how a page's body becomes rows
 * @param rowsAt the JSON pointer of the rows, for {@code json_at}
 * @param rowsMayBeAbsent for {@code json_at}: a page with nothing (or null) at {@code rowsAt} is an
 *     empty page ({@code rows.allow_missing}); otherwise it fails, as an error page answered 200
 * @param gzip {@code rows.gzip}: a body that starts as gzip does is inflated, member after member,
 *     before the decoder reads it
 * @param rowShape how the decoder's elements become rows: {@code rows.quoted}, {@code
 *     rows.builder}, {@code rows.field}, {@code rows.add_fields}
 * @param rowKey a JSON pointer naming a row's identity
 * @param pager how pages follow each other
 * @param maxPages pages at most per dump or window; one more page to read aborts it
 * @param maxPageBytes the most a held page may be (and the longest streamed record)
 * @param timeoutSecs a request's bound until its response starts, and on any stall in its body
 * @param failWhen a CEL condition over {@code body} that makes a 2xx page an error
 * @param errorAt a JSON pointer to the error text of a non-2xx body
 * @param errors what a non-2xx answer means: the profile's {@code errors} with the endpoint's over
 *     it
 * @param window a tail endpoint's window
 * @param vars the endpoint's computed variables ({@code vars}, over the profile's {@code
 *     defaults.vars}), in the order they are evaluated, each read as {@code vars.<name>}
 * @param unitVars the unit's own variables (a profile's or the instance's {@code
 *     units.<name>.vars}), over the connection's: one endpoint run under several unit names reads
 *     each unit's
 * @param constructs its {@code prelude} and {@code construct}: what it sends beside its listing
 * @param lister the object store whose listing this endpoint reads ({@code lister: s3}), or whose
 *     listed objects a manifest's item request reads: its pages and error answers are that store's
 * @param origin where the unit is named; for messages only, no part of {@link #equals}
 * @param path where the unit is named, as a config path
 */
public record Endpoint(
    String unit,
    boolean enabled,
    Shape shape,
    String method,
    Optional<BodyTemplate> body,
    Template path,
    Map<String, Template> query,
    Map<String, Template> headers,
    Decoder decoder,
    Optional<String> rowsAt,
    boolean rowsMayBeAbsent,
    boolean gzip,
    RowShape rowShape,
    Optional<String> rowKey,
    Pager pager,
    int maxPages,
    long maxPageBytes,
    int timeoutSecs,
    Optional<String> failWhen,
    Optional<String> errorAt,
    ErrorPolicy errors,
    Optional<WindowSpec> window,
    Map<String, Template> vars,
    Map<String, String> unitVars,
    Constructs constructs,
    Optional<ListerType> lister,
    ConfigOrigin origin,
    String configPath) {

  public static final int DEFAULT_MAX_PAGES = 50;
  public static final long DEFAULT_MAX_PAGE_BYTES = 16L * 1024 * 1024;
  public static final int DEFAULT_TIMEOUT_SECS = 30;

  public Endpoint {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(path, "path");
    query = Collections.unmodifiableMap(new LinkedHashMap<>(query));
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    Objects.requireNonNull(decoder, "decoder");
    Objects.requireNonNull(rowsAt, "rowsAt");
    Objects.requireNonNull(rowShape, "rowShape");
    Objects.requireNonNull(rowKey, "rowKey");
    Objects.requireNonNull(pager, "pager");
    Objects.requireNonNull(failWhen, "failWhen");
    Objects.requireNonNull(errorAt, "errorAt");
    Objects.requireNonNull(errors, "errors");
    Objects.requireNonNull(window, "window");
    vars = Collections.unmodifiableMap(new LinkedHashMap<>(vars));
    unitVars = Collections.unmodifiableMap(new LinkedHashMap<>(unitVars));
    Objects.requireNonNull(constructs, "constructs");
    Objects.requireNonNull(lister, "lister");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(configPath, "configPath");
  }

  /**
   * Equal when they mean the same: every component but {@code origin}, since where in the file an
   * endpoint was written (a comment line added above it) is no change a reload should restart it
   * for.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof Endpoint that && meaning().equals(that.meaning());
  }

  @Override
  public int hashCode() {
    return meaning().hashCode();
  }

  private List<Object> meaning() {
    return Arrays.asList(
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
        timeoutSecs,
        failWhen,
        errorAt,
        errors,
        window,
        vars,
        unitVars,
        constructs,
        lister,
        configPath);
  }

  /** This endpoint with {@code constructs} and {@code lister}, everything else as it is. */
  public Endpoint with(Constructs constructs, Optional<ListerType> lister) {
    return new Endpoint(
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
        timeoutSecs,
        failWhen,
        errorAt,
        errors,
        window,
        vars,
        unitVars,
        constructs,
        lister,
        origin,
        configPath);
  }

  /** Where the endpoint is written, as a config path ({@code ...endpoints[0]}), for messages. */
  public String settingsPath() {
    return configPath.endsWith(".unit")
        ? configPath.substring(0, configPath.length() - ".unit".length())
        : configPath;
  }

  /**
   * The names its requests read ({@code path}, {@code query}, {@code headers}, body, and those of
   * its constructs' requests), and through the computed variables they read, what those read.
   */
  public Set<String> placeholders() {
    Set<String> names = new HashSet<>(ownNames());
    constructs.keyset().flatMap(k -> k.request()).ifPresent(r -> names.addAll(r.ownNames()));
    constructs.second().ifPresent(stage -> names.addAll(stage.request().ownNames()));
    constructs.queue().ifPresent(queue -> names.addAll(queue.ackRequest().ownNames()));
    List<Map.Entry<String, Template>> computed = new ArrayList<>(vars.entrySet());
    Collections.reverse(computed);
    // A variable reads only those before it: one pass from the last reaches every one read.
    for (Map.Entry<String, Template> variable : computed) {
      if (names.contains("vars." + variable.getKey())) {
        names.addAll(variable.getValue().names());
      }
    }
    return names;
  }

  /** The names its own request reads: {@code path}, {@code query}, {@code headers}, body. */
  private Set<String> ownNames() {
    Set<String> names = new HashSet<>(path.names());
    query.values().forEach(template -> names.addAll(template.names()));
    headers.values().forEach(template -> names.addAll(template.names()));
    body.ifPresent(template -> names.addAll(template.names()));
    return names;
  }

  /**
   * The values its templates read on one request: the connection's {@code vars}, the unit's name,
   * the window's bounds when there is one, and the computed variables evaluated with them.
   *
   * @throws TemplateException when a computed variable cannot be evaluated
   */
  public TemplateValues values(Map<String, String> connectionVars, Optional<TemplateWindow> at) {
    return values(connectionVars, at, Map.of());
  }

  /**
   * As {@link #values(Map, Optional)}, with {@code bound} (a construct's {@code key}, {@code item}
   * or {@code ids}) beside the window's values, which the computed variables may read.
   */
  public TemplateValues values(
      Map<String, String> connectionVars, Optional<TemplateWindow> at, Map<String, Object> bound) {
    return TemplateValues.of(varsOver(connectionVars), unit).with(at).withBound(bound).with(vars);
  }

  /** {@code connectionVars} with the unit's own over them: what {@code vars.*} reads for it. */
  public Map<String, String> varsOver(Map<String, String> connectionVars) {
    if (unitVars.isEmpty()) {
      return connectionVars;
    }
    Map<String, String> layered = new LinkedHashMap<>(connectionVars);
    layered.putAll(unitVars);
    return layered;
  }
}
