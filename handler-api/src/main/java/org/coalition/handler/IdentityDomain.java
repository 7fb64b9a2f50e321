package org.coalition.handler;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An identity domain as one site file declares it (docs/site-file.md, {@code identity-domains}):
 * sites whose users are the same people under the same names, so that a job of one of
 * {@code users} may run at another member as that user rather than as its home's pool account,
 * and the paths every member mounts alike, where such a job runs in place. Each member declares
 * it in its own file; a site trusts only its own declaration.
 *
 * @param name what the domain is called in messages and decisions
 * @param sites its member sites, this one among them
 * @param users the accounts it maps to themselves; never root (an account under the system's
 *     first ordinary uid is refused when a job comes: {@link LocalUsers#ordinary})
 * @param shared absolute, normalised paths all members mount alike (none: jobs are staged)
 */
public record IdentityDomain(String name, Set<String> sites, Set<String> users, List<Path> shared) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  public IdentityDomain {
    if (!isName(name)) {
      throw new IllegalArgumentException("identity domain name '" + name + "' must be 1-64 letters, digits, '.', '_', '-'");
    }
    sites = Set.copyOf(sites);
    users = Set.copyOf(users);
    shared = List.copyOf(shared);
    if (sites.size() < 2) {
      throw new IllegalArgumentException("identity domain " + name + " must name at least two sites, this one and another");
    }
    for (String user : users) {
      if (!Accounts.isUnprivileged(user)) {
        throw new IllegalArgumentException("identity domain " + name + ": '" + user + "' is not an unprivileged account name; root is never mapped");
      }
    }
    for (Path p : shared) {
      if (!isSharedPath(p.toString())) {
        throw new IllegalArgumentException("identity domain " + name + ": shared path '" + p + "' must be absolute, normalised and not /");
      }
    }
  }

  /** Whether {@code name} is a domain's name: 1-64 letters, digits, '.', '_', '-', starting with a letter or digit. */
  public static boolean isName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /** Whether {@code path} may be shared: absolute and other than /, without '.', '..' or a trailing '/'. */
  public static boolean isSharedPath(String path) {
    Path p = Path.of(path);
    return p.isAbsolute() && p.equals(p.normalize()) && p.getNameCount() > 0 && !path.endsWith("/");
  }

  /** Whether both sites are members. */
  public boolean joins(String site, String other) {
    return sites.contains(site) && sites.contains(other);
  }

  /** Whether {@code dir} (absolute, normalised) lies under one of its shared paths. */
  public boolean shares(Path dir) {
    return shared.stream().anyMatch(dir::startsWith);
  }
}
