package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.page.Decoder;
import dfe.fetcher.rest.shape.RowBuilderType;
import dfe.fetcher.rest.shape.RowShape;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.Optional;

/**
 * Binds how an endpoint's elements become rows, beside its decoder under {@code rows}: {@code
 * quoted}, {@code builder}, {@code field} and {@code add_fields}. A setting the decoder cannot use
 * is reported at its path: {@code quoted} and a builder take JSON values, which {@code csv} and
 * {@code lines} do not read; {@code field} names what {@code wrap_non_object} or {@code lines}
 * writes, and nothing else.
 */
final class RowShapeBinder {

  private RowShapeBinder() {}

  static RowShape bind(
      Section rows, Decoder decoder, TemplateScope scope, TemplateBinder templates) {
    boolean quoted = rows.bool("quoted", false);
    if (quoted && !decoder.readsJsonValues()) {
      rows.report(
          "quoted", "applies to decoders that read JSON values, not " + decoder.configName());
    }
    Optional<RowBuilderType> builder = builder(rows, decoder);
    Optional<String> field = rows.string("field");
    if (field.isPresent()) {
      boolean wraps = builder.map(RowBuilderType::takesField).orElse(false);
      if (!wraps && decoder != Decoder.LINES) {
        rows.report("field", "applies to builder wrap_non_object and decoder lines only");
      } else if (field.get().isEmpty()) {
        rows.report("field", "must name a field");
      }
    }
    Optional<BodyTemplate> addFields = addFields(rows, scope, templates);
    return new RowShape(quoted, builder, field, addFields);
  }

  private static Optional<RowBuilderType> builder(Section rows, Decoder decoder) {
    Optional<String> name = rows.string("builder");
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Optional<RowBuilderType> builder = RowBuilderType.named(name.get());
    if (builder.isEmpty()) {
      rows.report(
          "builder",
          "unknown builder '"
              + name.get()
              + "'; one of "
              + String.join(", ", RowBuilderType.names()));
    } else if (!decoder.readsJsonValues()) {
      rows.report(
          "builder",
          "applies to decoders that read JSON values; "
              + decoder.configName()
              + " rows are objects of strings already");
      return Optional.empty();
    }
    return builder;
  }

  /** {@code add_fields} of {@code rows} (or of any section that takes it: a manifest). */
  static Optional<BodyTemplate> addFields(
      Section rows, TemplateScope scope, TemplateBinder templates) {
    Optional<YamlNode> node = rows.node("add_fields");
    if (node.isEmpty()) {
      return Optional.empty();
    }
    if (!(node.get() instanceof YamlNode.Mapping mapping)) {
      rows.report(
          "add_fields",
          "must be a mapping of field names to values (strings are templates), not "
              + node.get().description());
      return Optional.empty();
    }
    if (mapping.entries().isEmpty()) {
      rows.report("add_fields", "names no field; leave it out");
      return Optional.empty();
    }
    return templates.body(mapping, rows.pathOf("add_fields"), scope, rows);
  }
}
