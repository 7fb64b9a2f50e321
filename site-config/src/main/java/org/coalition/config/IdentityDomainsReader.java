package org.coalition.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.coalition.handler.Accounts;
import org.coalition.handler.IdentityDomain;
import org.coalition.handler.config.ConfigSection;
import org.coalition.handler.config.Node;

/**
 * Reads a site file's {@code identity-domains:} list (docs/site-file.md): each entry's name, its
 * member sites (this one among them), the users it maps and the paths its members share, every
 * problem reported with its line.
 */
final class IdentityDomainsReader {
  private static final String EXAMPLE = "identity-domains: [{name: campus, sites: [north, west], users: [alice, bob], shared: [/home]}]";

  private IdentityDomainsReader() {}

  /** The domains under {@code node} (null: none) of site {@code site}'s file {@code file}. */
  static List<IdentityDomain> read(String file, String site, Node node, List<String> problems) {
    List<IdentityDomain> out = new ArrayList<>();
    if (node == null || node.value() == null) {
      return out;
    }
    if (!(node.value() instanceof List<?> list)) {
      problems.add(file + ":" + node.line() + ": identity-domains: must be a list of domains, e.g. " + EXAMPLE);
      return out;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigSection d = ConfigSection.of(file, "identity-domains[" + i + "]", (Node) list.get(i), problems);
      int before = problems.size();
      String name = d.string("name", "", true);
      if (!name.isEmpty() && !IdentityDomain.isName(name)) {
        d.problem("name", "'" + name + "' must be 1-64 letters, digits, '.', '_', '-'");
      } else if (!name.isEmpty() && !names.add(name)) {
        d.problem("name", "'" + name + "' names two domains; give each its own name");
      }
      Set<String> sites = new LinkedHashSet<>(list(d, "sites", "[" + site + ", west]"));
      for (String s : sites) {
        if (!SiteConfigReader.ID.matcher(s).matches()) {
          d.problem("sites", "'" + s + "' is not a site id");
        }
      }
      if (!sites.isEmpty() && !sites.contains(site)) {
        d.problem("sites", "must list this site, " + site + ", and the others it shares users with: each member declares the domain in its own"
            + " file, and a site trusts only its own");
      } else if (sites.size() == 1) {
        d.problem("sites", "must list at least one other site besides " + site);
      }
      Set<String> users = new LinkedHashSet<>(list(d, "users", "[alice, bob]"));
      for (String u : users) {
        if (!Accounts.isUnprivileged(u)) {
          d.problem("users", "'" + u + "' is not an unprivileged account name; root is never mapped");
        }
      }
      List<Path> shared = new ArrayList<>();
      for (String s : d.words("shared", List.of(), "a list of absolute paths", "[/home, /scratch]")) {
        if (IdentityDomain.isSharedPath(s)) {
          shared.add(Path.of(s));
        } else {
          d.problem("shared", "'" + s + "' must be an absolute path other than /, without '.', '..' or a trailing '/', e.g. /home");
        }
      }
      d.rejectUnknown();
      if (problems.size() == before) {
        out.add(new IdentityDomain(name, sites, users, shared));
      }
    }
    return out;
  }

  /** A required, non-empty list of words under {@code key}. */
  private static List<String> list(ConfigSection d, String key, String example) {
    List<String> words = d.words(key, null, "a list of names", example);
    if (words == null || words.isEmpty()) {
      d.problem(key, "is required: a list, e.g. " + example);
      return List.of();
    }
    return words;
  }
}
