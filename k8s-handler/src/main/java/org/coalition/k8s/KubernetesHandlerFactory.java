package org.coalition.k8s;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.Accounts;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerFactory;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.config.ConfigSection;
import org.coalition.handler.config.Node;
import org.coalition.k8s.KubernetesConfig.Identity;

/** Kubernetes as a plug-in: reads {@code type: kubernetes} entries, connects {@link KubernetesHandler}. */
public final class KubernetesHandlerFactory implements HandlerFactory {
  static final String TYPE = "kubernetes";
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern UID_GID = Pattern.compile("([0-9]{1,10}):([0-9]{1,10})");

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Set<String> aliases() {
    return Set.of("k8s");
  }

  @Override
  public HandlerSettings read(String name, ConfigSection h) {
    Optional<Path> kubeconfig = Optional.ofNullable(h.absolutePath("kubeconfig", false));
    String namespace = h.string("namespace", "", true);
    if (!namespace.isEmpty() && !DNS_LABEL.matcher(namespace).matches()) {
      h.problem("namespace", "'" + namespace + "' must be a Kubernetes namespace: 1-63 lower-case letters, digits and '-'");
    }
    String image = h.string("image", "", true);
    if (image.chars().anyMatch(Character::isWhitespace)) {
      h.problem("image", "'" + image + "' must name a container image, e.g. registry.example.org/coalition-pilot:0.1");
    }
    Map<String, Identity> uids = uids(h);
    String priority = h.string("priority-class", "", false);
    if (!priority.isEmpty() && !DNS_LABEL.matcher(priority).matches()) {
      h.problem("priority-class", "'" + priority + "' must be a PriorityClass name: lower-case letters, digits and '-'");
    }
    return new KubernetesSettings(name, kubeconfig, namespace, image, uids,
        h.duration("pending-timeout", Duration.ofMinutes(5), Duration.ofSeconds(10)),
        h.duration("finished-retention", Duration.ofMinutes(10), Duration.ofMinutes(1)),
        priority.isEmpty() ? Optional.empty() : Optional.of(priority));
  }

  /** {@code uids}: each mapped local account's uid and gid, neither of them root's. */
  private static Map<String, Identity> uids(ConfigSection h) {
    Map<String, Identity> uids = new LinkedHashMap<>();
    Node node = h.node("uids");
    if (node == null || node.value() == null) {
      h.problem("uids", "is required: the uid and gid each mapped local account's pods run as, e.g. {alice: \"1001:1001\"}");
      return uids;
    }
    ConfigSection u = h.section("uids");
    if (node.value() instanceof Map<?, ?> m) {
      for (Object k : m.keySet()) {
        String account = (String) k;
        String value = u.string(account, "", true);
        Matcher match = UID_GID.matcher(value);
        if (!Accounts.isUnprivileged(account)) {
          u.problem(account, "is not an unprivileged local account; foreign jobs never run as root");
        } else if (!match.matches() || !inRange(match.group(1)) || !inRange(match.group(2))) {
          u.problem(account, "must be UID:GID, each 1 to 2147483647 (foreign jobs never run as root or in its group), was '" + value + "'");
        } else {
          uids.put(account, new Identity(Long.parseLong(match.group(1)), Long.parseLong(match.group(2))));
        }
      }
    }
    return uids;
  }

  private static boolean inRange(String id) {
    long v = Long.parseLong(id);
    return v >= 1 && v <= Integer.MAX_VALUE;
  }

  @Override
  public ResourceHandler connect(HandlerSettings settings, HandlerContext context) {
    KubernetesSettings k = (KubernetesSettings) settings;
    KubernetesConfig config = KubernetesConfig.of(k.namespace(), context.site(), k.image(), k.uids())
        .withPendingTimeout(k.pendingTimeout()).withFinishedRetention(k.finishedRetention()).withPriorityClass(k.priorityClass());
    return KubernetesHandler.connect(config, k.kubeconfig());
  }
}
