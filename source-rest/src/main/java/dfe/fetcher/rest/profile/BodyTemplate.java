package dfe.fetcher.rest.profile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.source.config.YamlNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A POST endpoint's JSON {@code body}, written in YAML: every string in it is a {@link Template}
 * (already checked at load), every other scalar is written as YAML typed it.
 *
 * <p>Two bodies are equal when they are the same JSON with the same templates: where in the file
 * they were written (the nodes' origins) takes no part, so a reload that only moved the body keeps
 * its connection running.
 */
public record BodyTemplate(YamlNode node) {

  private static final JsonFactory JSON = new JsonFactory();

  public BodyTemplate {
    Objects.requireNonNull(node, "node");
  }

  /** The names its strings read, each once. */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    collect(node, names);
    return names;
  }

  private static void collect(YamlNode node, Set<String> names) {
    if (node instanceof YamlNode.Mapping mapping) {
      mapping.entries().forEach(entry -> collect(entry.value(), names));
    } else if (node instanceof YamlNode.Sequence sequence) {
      sequence.items().forEach(item -> collect(item, names));
    } else if (node instanceof YamlNode.Scalar scalar
        && scalar.kind() == YamlNode.ScalarKind.STRING) {
      names.addAll(Template.parse(scalar.text()).names());
    }
  }

  public byte[] render(Map<String, String> values) {
    return write(text -> Template.parse(text).render(values));
  }

  /** The body as JSON with its templates as written: what it means, not where it stands. */
  private String meaning() {
    return new String(write(text -> text), StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BodyTemplate that && meaning().equals(that.meaning());
  }

  @Override
  public int hashCode() {
    return meaning().hashCode();
  }

  private byte[] write(UnaryOperator<String> strings) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator json = JSON.createGenerator(out)) {
      write(node, json, strings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void write(YamlNode node, JsonGenerator json, UnaryOperator<String> strings)
      throws IOException {
    if (node instanceof YamlNode.Mapping mapping) {
      json.writeStartObject();
      for (YamlNode.Entry entry : mapping.entries()) {
        json.writeFieldName(entry.key());
        write(entry.value(), json, strings);
      }
      json.writeEndObject();
    } else if (node instanceof YamlNode.Sequence sequence) {
      json.writeStartArray();
      for (YamlNode item : sequence.items()) {
        write(item, json, strings);
      }
      json.writeEndArray();
    } else if (node instanceof YamlNode.Scalar scalar) {
      switch (scalar.kind()) {
        case STRING -> json.writeString(strings.apply(scalar.text()));
        case INTEGER -> json.writeNumber(scalar.integer());
        case FLOAT -> json.writeNumber(scalar.text());
        case BOOLEAN -> json.writeBoolean(scalar.bool());
        case NULL -> json.writeNull();
      }
    }
  }
}
