package dfe.fetcher.rest.shape;

import dfe.fetcher.rest.profile.BodyTemplate;
import dfe.fetcher.rest.profile.TemplateValues;
import java.util.Objects;
import java.util.Optional;

/**
 * How the elements a decoder reads become rows, as an endpoint's {@code rows} sets it: {@code
 * quoted} (each element a JSON-encoded string, read as the value it holds), then a {@code builder}
 * (one element to its rows), then {@code add_fields} (the same fields added to every row). A value,
 * equal when the settings mean the same.
 *
 * @param quoted each element is a string holding JSON
 * @param builder the builder, when one is set
 * @param field {@code rows.field}: the field {@code wrap_non_object} wraps under (and {@code lines}
 *     puts each line under)
 * @param addFields a mapping whose strings are templates, added to every row
 * @param anyElement an element may be any JSON value as it is: the rows feed a construct (a
 *     lookup's ids, a manifest's items) and do not land
 */
public record RowShape(
    boolean quoted,
    Optional<RowBuilderType> builder,
    Optional<String> field,
    Optional<BodyTemplate> addFields,
    boolean anyElement) {

  /** Rows as the decoder reads them. */
  public static final RowShape NONE =
      new RowShape(false, Optional.empty(), Optional.empty(), Optional.empty());

  /** Rows that land: each must be a JSON object once shaped. */
  public RowShape(
      boolean quoted,
      Optional<RowBuilderType> builder,
      Optional<String> field,
      Optional<BodyTemplate> addFields) {
    this(quoted, builder, field, addFields, false);
  }

  /** This shape for rows that feed a construct: any JSON value is fine as it is. */
  public RowShape feedingAConstruct() {
    return new RowShape(quoted, builder, field, addFields, true);
  }

  public RowShape {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(addFields, "addFields");
  }

  /**
   * True when an element need not be a JSON object as the decoder reads it: {@code quoted} or a
   * builder makes it one, or fails it.
   */
  public boolean takesAnyElement() {
    return quoted || builder.isPresent() || anyElement;
  }

  /**
   * The shaper of one listing: {@code add_fields} rendered once with the listing's {@code values}
   * (variables, unit name, the window's bounds).
   *
   * @param maxRowBytes the longest row it may hand on ({@code max_page_bytes})
   */
  public RowShaper shaper(TemplateValues values, long maxRowBytes) {
    return new RowShaper(this, values, maxRowBytes);
  }
}
