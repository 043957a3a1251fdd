package dfe.fetcher.rest.profile;

import com.fasterxml.jackson.core.JsonGenerator;
import com.google.common.primitives.UnsignedLong;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The values one request's templates read: {@code vars.<name>}, {@code unit.name}, and for a tail
 * endpoint's window {@code window.start} and {@code window.end} as timestamps. A timestamp a
 * template yields is written in the window's {@code format} (so {@code {{ window.start }}} reads as
 * it always has), or as RFC 3339 in UTC where there is no window. Immutable.
 */
public final class TemplateValues {

  private final Map<String, Object> values;
  private final Optional<TimeFormat> timeFormat;

  private TemplateValues(Map<String, Object> values, Optional<TimeFormat> timeFormat) {
    this.values = Collections.unmodifiableMap(values);
    this.timeFormat = timeFormat;
  }

  /** The connection's variables (strings) and the unit's name. */
  public static TemplateValues of(Map<String, String> vars, String unit) {
    Map<String, Object> values = new HashMap<>();
    vars.forEach((name, value) -> values.put("vars." + name, value));
    values.put("unit.name", unit);
    return new TemplateValues(values, Optional.empty());
  }

  /** These values and the window's bounds; the same values without one. */
  public TemplateValues with(Optional<TemplateWindow> window) {
    if (window.isEmpty()) {
      return this;
    }
    Map<String, Object> more = new HashMap<>(values);
    more.put("window.start", window.get().start());
    more.put("window.end", window.get().end());
    return new TemplateValues(more, Optional.of(window.get().format()));
  }

  /**
   * These values and each computed variable, evaluated in order (each may read those before it).
   *
   * @throws TemplateException when one cannot be evaluated
   */
  public TemplateValues with(Map<String, Template> computed) {
    if (computed.isEmpty()) {
      return this;
    }
    TemplateValues at = this;
    for (Map.Entry<String, Template> variable : computed.entrySet()) {
      Map<String, Object> more = new HashMap<>(at.values);
      try {
        more.put("vars." + variable.getKey(), variable.getValue().value(at));
      } catch (TemplateException e) {
        throw new TemplateException("vars." + variable.getKey() + ": " + e.getMessage());
      }
      at = new TemplateValues(more, timeFormat);
    }
    return at;
  }

  /**
   * These values and each computed variable whose names they all have and which can be evaluated
   * without them, for what {@code config-check} prints: a variable read from the window is left
   * out, and the templates that read it show it as written.
   */
  public TemplateValues withKnown(Map<String, Template> computed) {
    TemplateValues at = this;
    for (Map.Entry<String, Template> variable : computed.entrySet()) {
      if (!variable.getValue().names().stream().allMatch(at::has)) {
        continue;
      }
      try {
        Map<String, Object> more = new HashMap<>(at.values);
        more.put("vars." + variable.getKey(), variable.getValue().value(at));
        at = new TemplateValues(more, timeFormat);
      } catch (TemplateException e) {
        // Left out: the request that renders it reports why.
      }
    }
    return at;
  }

  /**
   * These values and {@code bound}: a construct's current key ({@code key}), item ({@code item}) or
   * batch ({@code ids}), each a value as {@link JsonValues#of} makes it from JSON.
   */
  public TemplateValues withBound(Map<String, Object> bound) {
    if (bound.isEmpty()) {
      return this;
    }
    Map<String, Object> more = new HashMap<>(values);
    more.putAll(bound);
    return new TemplateValues(more, timeFormat);
  }

  /** Whether {@code name} has a value here: itself, or the value it is a field of. */
  public boolean has(String name) {
    if (values.containsKey(name)) {
      return true;
    }
    int dot = name.indexOf('.');
    return dot > 0 && !name.startsWith("vars.") && values.containsKey(name.substring(0, dot));
  }

  Map<String, Object> activation() {
    return values;
  }

  /**
   * {@code value}, as a CEL expression yielded it, written as text: a string as it is, a number in
   * decimal, a bool as {@code true}/{@code false}, a timestamp as said above.
   *
   * @throws TemplateException for a value text cannot hold (a list, a map, bytes, a duration,
   *     null), which the type check at load rules out but for values of type {@code dyn}
   */
  String text(Object value, String expression) {
    if (value instanceof String string) {
      return string;
    }
    if (value instanceof Long || value instanceof UnsignedLong || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Double number) {
      return number.isNaN() || number.isInfinite()
          ? number.toString()
          : BigDecimal.valueOf(number).toPlainString();
    }
    if (value instanceof Instant instant) {
      return time(instant);
    }
    throw new TemplateException(
        "'{{ " + expression + " }}' yielded " + kind(value) + ", which cannot be written as text");
  }

  /**
   * {@code value} written as a JSON value: numbers and bools as themselves, lists and maps as
   * arrays and objects of their values, timestamps as text, null as null.
   */
  void json(JsonGenerator json, Object value, String expression) throws IOException {
    if (value instanceof Long number) {
      json.writeNumber(number);
    } else if (value instanceof UnsignedLong number) {
      json.writeNumber(number.bigIntegerValue());
    } else if (value instanceof Double number && !number.isNaN() && !number.isInfinite()) {
      json.writeNumber(number);
    } else if (value instanceof Boolean bool) {
      json.writeBoolean(bool);
    } else if (value instanceof List<?> list) {
      json.writeStartArray();
      for (Object item : list) {
        json(json, item, expression);
      }
      json.writeEndArray();
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.writeFieldName(String.valueOf(entry.getKey()));
        json(json, entry.getValue(), expression);
      }
      json.writeEndObject();
    } else if (isNull(value)) {
      json.writeNull();
    } else {
      json.writeString(text(value, expression));
    }
  }

  private String time(Instant instant) {
    return timeFormat
        .map(format -> format.format(instant))
        .orElseGet(() -> DateTimeFormatter.ISO_INSTANT.format(instant));
  }

  private static boolean isNull(Object value) {
    // CEL has a null of its own and, from its protobuf roots, a second one.
    return value == null || value.getClass().getSimpleName().equals("NullValue");
  }

  /** The kind of a value, never the value: messages may be logged. */
  private static String kind(Object value) {
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof Map) {
      return "a map";
    }
    if (isNull(value)) {
      return "null";
    }
    return "a " + value.getClass().getSimpleName();
  }
}
