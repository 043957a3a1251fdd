package dfe.fetcher.rest.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON body written in YAML whose {@code {secret: SPEC}} values are secrets, revealed each time
 * the body is rendered: {@code {user: ops, password: {secret: env:APP_PASSWORD}}}. Prints as its
 * shape, never a secret.
 */
final class LoginBody {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** One value of the body. */
  private sealed interface Part {
    JsonNode render();
  }

  private record Literal(JsonNode value) implements Part {
    @Override
    public JsonNode render() {
      return value;
    }
  }

  private record SecretValue(Secret secret) implements Part {
    @Override
    public JsonNode render() {
      return NODES.textNode(secret.reveal());
    }
  }

  private record Fields(Map<String, Part> fields) implements Part {
    @Override
    public JsonNode render() {
      ObjectNode object = NODES.objectNode();
      fields.forEach((name, part) -> object.set(name, part.render()));
      return object;
    }
  }

  private record Items(List<Part> items) implements Part {
    @Override
    public JsonNode render() {
      ArrayNode array = NODES.arrayNode();
      items.forEach(part -> array.add(part.render()));
      return array;
    }
  }

  private final Part root;

  private LoginBody(Part root) {
    this.root = root;
  }

  /** The body at {@code key} of {@code auth}; absent is an empty object. */
  static LoginBody bind(Section auth, String key, BindContext context) {
    return new LoginBody(
        auth.node(key)
            .map(node -> part(node, auth.pathOf(key), auth, context))
            .orElse(new Fields(Map.of())));
  }

  private static Part part(YamlNode node, String at, Section auth, BindContext context) {
    if (node instanceof YamlNode.Mapping mapping) {
      if (mapping.entries().size() == 1 && mapping.entries().get(0).key().equals("secret")) {
        YamlNode spec = mapping.entries().get(0).value();
        String path = Section.join(at, "secret");
        return auth.text(spec, path)
            .flatMap(text -> context.secret(text, spec.origin(), path))
            .<Part>map(SecretValue::new)
            .orElse(new Literal(NODES.textNode("")));
      }
      Map<String, Part> fields = new LinkedHashMap<>();
      for (YamlNode.Entry entry : mapping.entries()) {
        fields.put(entry.key(), part(entry.value(), Section.join(at, entry.key()), auth, context));
      }
      return new Fields(fields);
    }
    if (node instanceof YamlNode.Sequence sequence) {
      List<Part> items = new ArrayList<>();
      for (int i = 0; i < sequence.items().size(); i++) {
        items.add(part(sequence.items().get(i), at + "[" + i + "]", auth, context));
      }
      return new Items(items);
    }
    YamlNode.Scalar scalar = (YamlNode.Scalar) node;
    if (scalar.isFromEnvironment()) {
      return new Literal(NODES.textNode(scalar.text()));
    }
    return new Literal(
        switch (scalar.kind()) {
          case STRING -> NODES.textNode(scalar.text());
          case INTEGER -> NODES.numberNode(scalar.integer());
          case FLOAT -> decimal(scalar, at, auth);
          case BOOLEAN -> NODES.booleanNode(scalar.bool());
          case NULL -> NODES.nullNode();
        });
  }

  /** A YAML float JSON can carry; {@code .inf} and {@code .nan} are reported. */
  private static JsonNode decimal(YamlNode.Scalar scalar, String at, Section auth) {
    try {
      return NODES.numberNode(new BigDecimal(scalar.text()));
    } catch (NumberFormatException e) {
      auth.report(scalar, at, "is not a number JSON can carry");
      return NODES.nullNode();
    }
  }

  /** The body as JSON, its secrets revealed now. */
  byte[] render() {
    try {
      return JSON.writeValueAsBytes(root.render());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree that cannot be written", e);
    }
  }

  @Override
  public String toString() {
    return "LoginBody[***]";
  }
}
