package org.coalition.k8s;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the Kubernetes handler needs from the site file.
 *
 * @param namespace where pilot Jobs and their Secrets live (the daemon's service account may
 *     create, patch and delete Jobs and Secrets there; see the module README for the RBAC rules)
 * @param site the site's id, written on every object as the label {@code coalition.org/site}
 * @param image the container image pilots run in; it must hold the pilot command
 * @param accounts local account name to the uid and gid its pods run as; a pilot for an account
 *     that is not here is refused. No account maps to uid 0: foreign jobs never run as root.
 * @param pendingTimeout a released pilot whose pod the scheduler has not placed after this long is
 *     withdrawn (Kubernetes leaves what does not fit Pending instead of queueing it)
 * @param finishedRetention ended pilot Jobs are deleted, with their Secrets, this long after they
 *     ended (the daemon reads a pilot's end well before); also the Jobs' {@code ttlSecondsAfterFinished}
 * @param defaultTimeLimit counted for a pending pod that has no {@code activeDeadlineSeconds}
 * @param priorityClass the priority class of pilot pods; empty for the cluster's default
 * @param pageSize objects per page when listing nodes, pods and Jobs to observe the load
 */
public record KubernetesConfig(
    String namespace,
    String site,
    String image,
    Map<String, Identity> accounts,
    Duration pendingTimeout,
    Duration finishedRetention,
    Duration defaultTimeLimit,
    Optional<String> priorityClass,
    int pageSize) {
  /** A DNS-1123 label: namespaces, priority classes, label values we write. */
  static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  /** A label value: the site's name is written as one. */
  static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

  /** The uid and gid a local account's pods run as. */
  public record Identity(long uid, long gid) {
    public Identity {
      if (uid < 1 || gid < 1 || uid > Integer.MAX_VALUE || gid > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("uid and gid must be 1 to " + Integer.MAX_VALUE + " (foreign jobs never run as root or in its group),"
            + " were " + uid + " and " + gid);
      }
    }
  }

  public KubernetesConfig {
    check(namespace, "namespace");
    if (site == null || !LABEL_VALUE.matcher(site).matches()) {
      throw new IllegalArgumentException("kubernetes handler: site '" + site + "' must fit a label value: at most 63 letters, digits, '-', '_', '.'");
    }
    if (image == null || image.isBlank() || image.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("kubernetes handler: image '" + image
          + "' must name a container image, e.g. registry.example.org/coalition-pilot:0.1");
    }
    accounts = Map.copyOf(Objects.requireNonNull(accounts, "accounts"));
    if (accounts.containsKey("root")) {
      throw new IllegalArgumentException("kubernetes handler: accounts must not map root; foreign jobs never run as root");
    }
    positive(pendingTimeout, "pendingTimeout");
    positive(finishedRetention, "finishedRetention");
    positive(defaultTimeLimit, "defaultTimeLimit");
    Objects.requireNonNull(priorityClass, "priorityClass");
    priorityClass.ifPresent(p -> check(p, "priorityClass"));
    if (pageSize < 1) {
      throw new IllegalArgumentException("kubernetes handler: pageSize must be >= 1, was " + pageSize);
    }
  }

  /**
   * Defaults: pilots withdrawn after 5 minutes Pending, ended Jobs kept 10 minutes, 1 hour counted
   * for a pending pod without a deadline, the default priority class, pages of 500.
   */
  public static KubernetesConfig of(String namespace, String site, String image, Map<String, Identity> accounts) {
    return new KubernetesConfig(namespace, site, image, accounts, Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofHours(1),
        Optional.empty(), 500);
  }

  public KubernetesConfig withPendingTimeout(Duration d) {
    return new KubernetesConfig(namespace, site, image, accounts, d, finishedRetention, defaultTimeLimit, priorityClass, pageSize);
  }

  public KubernetesConfig withFinishedRetention(Duration d) {
    return new KubernetesConfig(namespace, site, image, accounts, pendingTimeout, d, defaultTimeLimit, priorityClass, pageSize);
  }

  public KubernetesConfig withPriorityClass(Optional<String> p) {
    return new KubernetesConfig(namespace, site, image, accounts, pendingTimeout, finishedRetention, defaultTimeLimit, p, pageSize);
  }

  public KubernetesConfig withPageSize(int n) {
    return new KubernetesConfig(namespace, site, image, accounts, pendingTimeout, finishedRetention, defaultTimeLimit, priorityClass, n);
  }

  private static void check(String value, String key) {
    if (value == null || !DNS_LABEL.matcher(value).matches()) {
      throw new IllegalArgumentException("kubernetes handler: " + key + " '" + value
          + "' must be a DNS label: 1-63 lower-case letters, digits and '-', starting and ending with a letter or digit");
    }
  }

  private static void positive(Duration d, String key) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("kubernetes handler: " + key + " must be a positive duration, was " + d);
    }
  }
}
