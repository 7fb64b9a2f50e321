package org.coalition.daemon.base;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.coalition.coordination.JobOwner;
import org.coalition.coordination.JobSpec;
import org.coalition.handler.IdentityDomain;
import org.coalition.handler.LocalUsers;

/**
 * What this site's identity domains decide (docs/jobs.md, "Identity domains"). As a home: whose a
 * job is, sent only when a domain of this site maps its user, with its working directory when
 * that lies under the domain's shared paths. As an executor: the user a foreign job runs as and
 * the directory it runs in, granted only by this site's own declaration (the home's record asks;
 * a hostile home can ask for any name) and only to an ordinary user of this host.
 */
public final class IdentityDomains {
  /** A site in no identity domain: every foreign job runs as its home's pool account. */
  public static final IdentityDomains NONE = new IdentityDomains("none", List.of(), name -> false);
  /** How long the answer of the name service is kept (a job asked for in every round asks it once a minute). */
  private static final long CACHE_MILLIS = 60_000;

  private final String site;
  private final List<IdentityDomain> domains;
  private final Predicate<String> ordinaryUser;
  private final Clock clock = Clock.systemUTC();
  private final Map<String, Checked> checked = new ConcurrentHashMap<>();

  private record Checked(boolean ordinary, long at) {}

  /**
   * The domains {@code site} declares; {@code ordinaryUser} says whether a name is an ordinary
   * user of this host ({@link LocalUsers#ordinary(String)}).
   */
  public IdentityDomains(String site, List<IdentityDomain> domains, Predicate<String> ordinaryUser) {
    this.site = site;
    this.domains = List.copyOf(domains);
    this.ordinaryUser = ordinaryUser;
  }

  /** The domains {@code site} declares, checked against this host's accounts. */
  public static IdentityDomains of(String site, List<IdentityDomain> domains) {
    return domains.isEmpty() ? NONE : new IdentityDomains(site, domains, LocalUsers::ordinary);
  }

  public List<IdentityDomain> domains() {
    return domains;
  }

  /**
   * As a home: who {@code user}'s job is for the members of a domain of this site that maps the
   * user, with its working directory {@code workDir} when a domain that maps the user shares it;
   * {@link JobOwner#NONE} when no domain of this site maps the user.
   */
  public JobOwner ownerOf(String user, String workDir) {
    List<IdentityDomain> mapping = domains.stream().filter(d -> d.sites().contains(site) && d.users().contains(user)).toList();
    if (mapping.isEmpty()) {
      return JobOwner.NONE;
    }
    Optional<Path> dir = normalised(workDir);
    boolean shared = dir.isPresent() && mapping.stream().anyMatch(d -> d.shares(dir.get()));
    return new JobOwner(user, shared ? dir.get().toString() : "");
  }

  /**
   * As an executor: the user {@code job} runs as here, when a domain of this site joins it with
   * the job's home and maps the user its home names, and that user is an ordinary user of this host.
   */
  public Optional<String> userFor(JobSpec job) {
    JobOwner owner = job.owner();
    if (!owner.any() || domains.stream().noneMatch(d -> d.joins(site, job.home()) && d.users().contains(owner.user()))) {
      return Optional.empty();
    }
    return ordinary(owner.user()) ? Optional.of(owner.user()) : Optional.empty();
  }

  /**
   * As an executor: the directory {@code job} runs in here, its home's own, when it runs as its
   * user ({@link #userFor}) and a domain of this site that maps the user shares that directory.
   */
  public Optional<String> placeFor(JobSpec job) {
    JobOwner owner = job.owner();
    if (owner.workDir().isEmpty() || userFor(job).isEmpty()) {
      return Optional.empty();
    }
    Path dir = Path.of(owner.workDir());
    boolean shared = domains.stream().anyMatch(d -> d.joins(site, job.home()) && d.users().contains(owner.user()) && d.shares(dir));
    return shared ? Optional.of(owner.workDir()) : Optional.empty();
  }

  private boolean ordinary(String user) {
    long now = clock.millis();
    Checked c = checked.get(user);
    if (c == null || now - c.at() > CACHE_MILLIS) {
      c = new Checked(ordinaryUser.test(user), now);
      checked.put(user, c);
    }
    return c.ordinary();
  }

  /** {@code workDir} as an absolute, normalised path the record takes, if it is one. */
  private static Optional<Path> normalised(String workDir) {
    if (workDir == null || !workDir.startsWith("/")) {
      return Optional.empty();
    }
    try {
      Path p = Path.of(workDir).normalize();
      // a path the record cannot carry (too long, control characters) is none: the job is staged instead
      return JobOwner.isWorkDir(p.toString()) ? Optional.of(p) : Optional.empty();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }
}
