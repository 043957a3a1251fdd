package dfe.fetcher.rest.profile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.source.config.YamlNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A POST endpoint's JSON {@code body}, written in YAML: every string in it is a {@link Template}
 * (compiled at load, {@link Template.Use#JSON_VALUE}), every other scalar is written as YAML typed
 * it. A string that is one expression alone is written as the JSON value it yields: {@code "{{
 * int(vars.limit) }}"} is a number, {@code "{{ vars.ids.split(',') }}"} an array; a string with
 * text around its expressions, or an expression that yields a string or a timestamp, is a string.
 *
 * <p>Two bodies are equal when they are the same JSON with the same templates: where in the file
 * they were written (the nodes' origins) takes no part, so a reload that only moved the body keeps
 * its connection running.
 *
 * @param node the body as written
 * @param strings its strings' templates, in the order a depth-first walk meets them
 */
public record BodyTemplate(YamlNode node, List<Template> strings) {

  private static final JsonFactory JSON = new JsonFactory();

  public BodyTemplate {
    Objects.requireNonNull(node, "node");
    strings = List.copyOf(strings);
  }

  /** The names its strings read, each once. */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    strings.forEach(template -> names.addAll(template.names()));
    return names;
  }

  /**
   * The body as JSON with {@code values}.
   *
   * @throws TemplateException when a template cannot be evaluated
   */
  public byte[] render(TemplateValues values) {
    return write(new Rendered(values));
  }

  /** The body as JSON with its templates as written: what it means, not where it stands. */
  private String meaning() {
    return new String(write(new AsWritten()), StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BodyTemplate that && meaning().equals(that.meaning());
  }

  @Override
  public int hashCode() {
    return meaning().hashCode();
  }

  /** How a string of the body is written. */
  private interface Strings {
    void write(JsonGenerator json, String text) throws IOException;
  }

  private final class Rendered implements Strings {
    private final TemplateValues values;
    private final Iterator<Template> templates = strings.iterator();

    Rendered(TemplateValues values) {
      this.values = values;
    }

    @Override
    public void write(JsonGenerator json, String text) throws IOException {
      Template template = templates.next();
      if (template.parts().size() == 1
          && template.parts().get(0) instanceof Template.Expression e) {
        values.json(json, template.value(values), e.source());
      } else {
        json.writeString(template.render(values));
      }
    }
  }

  private static final class AsWritten implements Strings {
    @Override
    public void write(JsonGenerator json, String text) throws IOException {
      json.writeString(text);
    }
  }

  private byte[] write(Strings strings) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator json = JSON.createGenerator(out)) {
      write(node, json, strings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void write(YamlNode node, JsonGenerator json, Strings strings) throws IOException {
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
        case STRING -> strings.write(json, scalar.text());
        case INTEGER -> json.writeNumber(scalar.integer());
        case FLOAT -> json.writeNumber(scalar.text());
        case BOOLEAN -> json.writeBoolean(scalar.bool());
        case NULL -> json.writeNull();
      }
    }
  }
}
