package dfe.fetcher.rest.profile;

import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.rest.http.ErrorPolicy;
import dfe.fetcher.rest.http.ThrottleCondition;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Binds {@code errors}, the profile's and an endpoint's, into one {@link ErrorPolicy}: each key the
 * endpoint sets replaces the profile's. Statuses are integers from 400 to 599; a status both
 * retried and never retried, or both retried and ignored, is refused, as is a {@code throttle_when}
 * that does not compile or reads anything but {@code status} and {@code body}.
 */
final class ErrorPolicyBinder {

  private static final Set<String> THROTTLE_NAMES = Set.of("status", "body");

  /** The keys one {@code errors} section sets; empty where it sets nothing. */
  record Settings(
      Optional<Set<Integer>> retryOn,
      Optional<Set<Integer>> neverRetry,
      Optional<Set<Integer>> ignoreStatus,
      Optional<ThrottleCondition> throttleWhen,
      Optional<Boolean> retryNonIdempotent) {

    boolean isEmpty() {
      return retryOn.isEmpty()
          && neverRetry.isEmpty()
          && ignoreStatus.isEmpty()
          && throttleWhen.isEmpty()
          && retryNonIdempotent.isEmpty();
    }

    /** These settings, with {@code base}'s where these set nothing. */
    Settings over(Settings base) {
      return new Settings(
          retryOn.or(base::retryOn),
          neverRetry.or(base::neverRetry),
          ignoreStatus.or(base::ignoreStatus),
          throttleWhen.or(base::throttleWhen),
          retryNonIdempotent.or(base::retryNonIdempotent));
    }

    ErrorPolicy policy() {
      return new ErrorPolicy(
          retryOn,
          neverRetry.orElse(Set.of()),
          ignoreStatus.orElse(Set.of()),
          throttleWhen,
          retryNonIdempotent.orElse(false));
    }
  }

  private ErrorPolicyBinder() {}

  /**
   * Reads a profile's {@code errors} and checks it alone, so a problem in it is reported once,
   * whatever the number of endpoints.
   */
  static Settings profile(Section errors) {
    Settings settings = read(errors);
    checkOverlaps(settings, errors);
    return settings;
  }

  /** The policy of an endpoint: its own {@code errors} over the profile's {@code settings}. */
  static ErrorPolicy endpoint(Settings profile, Section errors, String method) {
    return settings(profile, errors, method).policy();
  }

  /**
   * The settings of {@code errors} over {@code base} (an endpoint's over the profile's, a construct
   * request's over its endpoint's), each problem reported once, at {@code errors}.
   */
  static Settings settings(Settings base, Section errors, String method) {
    Settings profile = base;
    if (errors.node("retry_non_idempotent").isPresent() && !method.equals("POST")) {
      errors.report("retry_non_idempotent", "applies to method: POST only");
    }
    Settings own = read(errors);
    Settings merged = own.over(profile);
    if (!own.isEmpty()) {
      checkOverlaps(merged, errors);
    }
    return merged;
  }

  private static Settings read(Section errors) {
    Optional<ThrottleCondition> throttle = Optional.empty();
    Optional<String> expression = errors.string("throttle_when");
    if (expression.isPresent()) {
      try {
        ThrottleCondition condition = ThrottleCondition.compile(expression.get());
        Set<String> other = new TreeSet<>(condition.variables());
        other.removeAll(THROTTLE_NAMES);
        if (other.isEmpty()) {
          throttle = Optional.of(condition);
        } else {
          errors.report(
              "throttle_when",
              "reads "
                  + String.join(", ", other)
                  + "; a throttle_when sees status (a number) and body (the answer's JSON) only");
        }
      } catch (FilterCompileException e) {
        errors.report("throttle_when", "does not compile: " + e.getMessage());
      }
    }
    Optional<Boolean> nonIdempotent =
        errors.node("retry_non_idempotent").map(node -> errors.bool("retry_non_idempotent", false));
    return new Settings(
        statuses(errors, "retry_on"),
        statuses(errors, "never_retry"),
        statuses(errors, "ignore_status"),
        throttle,
        nonIdempotent);
  }

  private static Optional<Set<Integer>> statuses(Section errors, String key) {
    Optional<List<YamlNode>> items = errors.list(key);
    if (items.isEmpty()) {
      return Optional.empty();
    }
    Set<Integer> statuses = new TreeSet<>();
    for (int i = 0; i < items.get().size(); i++) {
      YamlNode item = items.get().get(i);
      String at = errors.pathOf(key) + "[" + i + "]";
      if (item instanceof YamlNode.Scalar scalar
          && scalar.kind() == YamlNode.ScalarKind.INTEGER
          && scalar.integer().compareTo(BigInteger.valueOf(400)) >= 0
          && scalar.integer().compareTo(BigInteger.valueOf(599)) <= 0) {
        statuses.add(scalar.integer().intValue());
      } else {
        errors.report(
            item,
            at,
            "must be an HTTP error status from 400 to 599, e.g. 404, not "
                + (item instanceof YamlNode.Scalar scalar
                        && scalar.kind() == YamlNode.ScalarKind.INTEGER
                    ? scalar.text()
                    : item.description()));
      }
    }
    return Optional.of(statuses);
  }

  private static void checkOverlaps(Settings settings, Section errors) {
    Set<Integer> retried = settings.retryOn().orElse(Set.of());
    overlap(retried, settings.neverRetry().orElse(Set.of()))
        .ifPresent(
            status ->
                errors.report(
                    "never_retry",
                    status + " is in retry_on too; a status is either retried or never"));
    overlap(retried, settings.ignoreStatus().orElse(Set.of()))
        .ifPresent(
            status ->
                errors.report(
                    "ignore_status",
                    status + " is in retry_on too; an ignored status is not retried"));
  }

  private static Optional<Integer> overlap(Set<Integer> one, Set<Integer> other) {
    return one.stream().filter(other::contains).findFirst();
  }
}
