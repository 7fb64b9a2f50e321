package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.Tool;

/**
 * HTCondor's command-line tools as the handler and the DRMAA session call them: where they are,
 * how a job is submitted as another user, and their JSON output read with Jackson. A tool that
 * exits non-zero or prints what is not JSON gives a {@link HandlerException} quoting it.
 *
 * @param bin folder of the {@code condor_*} tools; empty to find them on the PATH
 * @param asUser the command before {@code condor_submit} that runs it as a user, {@code {user}} replaced (default {@code runuser -u {user} --})
 * @param asUserEnvironment variables that run a tool as a user instead, {@code {user}} replaced (the testbed's wrappers)
 * @param timeout longest one tool call may take
 */
public record CondorTools(Optional<Path> bin, List<String> asUser, Map<String, String> asUserEnvironment, Duration timeout) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public CondorTools {
    Objects.requireNonNull(bin, "bin");
    asUser = List.copyOf(asUser);
    asUserEnvironment = Map.copyOf(asUserEnvironment);
    Objects.requireNonNull(timeout, "timeout");
  }

  /** Tools on the PATH, submissions as another user through {@code runuser}, 60 s per call. */
  public static CondorTools onPath() {
    return new CondorTools(Optional.empty(), List.of("/usr/sbin/runuser", "-u", "{user}", "--"), Map.of(), Duration.ofSeconds(60));
  }

  /** Runs {@code tool} as the daemon's own user. */
  Tool.Result run(String tool, List<String> args, String stdin) {
    return new Tool(List.of(path(tool)), Map.of(), timeout).run(args, stdin);
  }

  /** Runs {@code tool} as {@code user} (the daemon's own user when {@code user} is empty). */
  Tool.Result runAs(Optional<String> user, String tool, List<String> args, String stdin) {
    if (user.isEmpty()) {
      return run(tool, args, stdin);
    }
    List<String> argv = new ArrayList<>();
    asUser.forEach(a -> argv.add(a.replace("{user}", user.get())));
    argv.add(path(tool));
    Map<String, String> env = new LinkedHashMap<>();
    asUserEnvironment.forEach((k, v) -> env.put(k, v.replace("{user}", user.get())));
    return new Tool(argv, env, timeout).run(args, stdin);
  }

  /** Runs a {@code -json} query and returns its array of ads; HTCondor prints nothing at all when none matched. */
  List<JsonNode> ads(String tool, List<String> args, String what) {
    String out = run(tool, args, null).requireSuccess(what, Category.UNAVAILABLE);
    return parse(out, tool + " " + String.join(" ", args));
  }

  /** The ads of a {@code -json} output; an empty output is no ads. */
  static List<JsonNode> parse(String out, String command) {
    if (out.isBlank()) {
      return List.of();
    }
    JsonNode tree;
    try {
      tree = JSON.readTree(out);
    } catch (Exception e) {
      String start = out.length() > 200 ? out.substring(0, 200) + "..." : out;
      throw new HandlerException(Category.PROTOCOL, command + " printed something that is not JSON (" + e.getMessage().lines().findFirst()
          .orElse("") + "): " + start.strip(), e);
    }
    if (!tree.isArray()) {
      throw new HandlerException(Category.PROTOCOL, command + " printed a JSON " + tree.getNodeType() + ", not an array of ads");
    }
    List<JsonNode> ads = new ArrayList<>();
    tree.forEach(ads::add);
    return ads;
  }

  private String path(String tool) {
    return bin.map(b -> b.resolve(tool).toString()).orElse(tool);
  }

  /** Whether a tool's words say the job it was asked about does not exist. */
  static boolean saysNotFound(Tool.Result r) {
    String words = r.stdout() + r.stderr();
    return words.contains("There are no jobs in the queue") || words.contains("Couldn't find") || words.contains("not found");
  }

  /** {@code condor_rm} of a job already removed whose ad is still in the queue (its shadow or starter still cleaning up). */
  static boolean saysAlreadyRemoved(Tool.Result r) {
    return (r.stdout() + r.stderr()).contains("already marked for removal");
  }
}
