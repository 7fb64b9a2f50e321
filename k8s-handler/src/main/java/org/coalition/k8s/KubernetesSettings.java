package org.coalition.k8s;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.SiteFacts;
import org.coalition.k8s.KubernetesConfig.Identity;

/**
 * A site file's {@code type: kubernetes} entry: pilots as {@code batch/v1} Jobs in
 * {@code namespace}, running {@code image} as the uid and gid {@code uids} gives their local
 * account. Credentials: {@code kubeconfig}, or else {@code $KUBECONFIG}, {@code ~/.kube/config},
 * or the pod's service account.
 */
public record KubernetesSettings(String name, Optional<Path> kubeconfig, String namespace, String image, Map<String, Identity> uids,
    Duration pendingTimeout, Duration finishedRetention, Optional<String> priorityClass) implements HandlerSettings {
  @Override
  public String type() {
    return KubernetesHandlerFactory.TYPE;
  }

  @Override
  public String partitionRefused() {
    return "Kubernetes has no partitions";
  }

  /** The site's id labels every object; every mapped account needs a uid (Kubernetes has no accounts of its own). */
  @Override
  public void check(SiteFacts site) {
    if (!KubernetesConfig.LABEL_VALUE.matcher(site.site()).matches()) {
      site.problem("site", "'" + site.site() + "' must also be a Kubernetes label value for handler " + name
          + ": at most 63 characters, starting and ending with a letter or digit");
    }
    site.accounts().stream().filter(a -> !uids.containsKey(a)).forEach(a -> site.problem("accounts", "account '" + a
        + "' has no uid in handler " + name + "'s uids; add " + a + ": \"UID:GID\" there (its pods run as that uid)"));
  }
}
