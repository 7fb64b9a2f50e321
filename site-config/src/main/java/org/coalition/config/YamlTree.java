package org.coalition.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coalition.handler.config.Node;

/**
 * A YAML document as a tree whose every node knows its line, so that a problem can be reported
 * where the admin wrote it. Values are {@code Map<String, Node>}, {@code List<Node>}, a scalar
 * string, or null.
 */
final class YamlTree {
  private static final YAMLFactory YAML = YAMLFactory.builder().build();

  private YamlTree() {}

  /** What the YAML parser accepts but a site file must not have, at a line. */
  static final class Problem extends IOException {
    private static final long serialVersionUID = 1L;
    final int line;

    Problem(int line, String message) {
      super(message);
      this.line = line;
    }
  }

  static Node parse(String text) throws IOException {
    try (JsonParser p = YAML.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return new Node(new LinkedHashMap<String, Node>(), 1);
      }
      Node root = read(p);
      if (p.nextToken() != null) {
        throw new Problem(line(p), "only one YAML document is allowed in a site file");
      }
      return root;
    }
  }

  private static Node read(JsonParser p) throws IOException {
    int line = line(p);
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Node> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          int keyLine = line(p);
          p.nextToken();
          Node value = read(p);
          if (map.put(key, new Node(value.value(), value.value() instanceof Map || value.value() instanceof List ? keyLine : value.line())) != null) {
            throw new Problem(keyLine, "key '" + key + "' appears twice");
          }
        }
        return new Node(map, line);
      }
      case START_ARRAY -> {
        List<Node> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(p));
        }
        return new Node(list, line);
      }
      case VALUE_NULL -> {
        return new Node(null, line);
      }
      default -> {
        return new Node(p.getText(), line);
      }
    }
  }

  private static int line(JsonParser p) {
    return p.currentTokenLocation().getLineNr();
  }
}
