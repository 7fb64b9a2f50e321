package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real MUNGE credentials, made and decoded by the testbed's munged (the one Slurm 22.05 uses on
 * this host): a user is told by the credential they made, once; a replay, a forgery or a
 * credential changed on the way prove no one.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class MungeUsersIT {
  private final MungeUsers users = new MungeUsers(List.of("unmunge"));

  /** A credential made by {@code user} (null: this process's, root's). */
  private static String credential(String user) {
    Command munge = user == null ? Command.of(Path.of("/usr/bin/munge"), "-n")
        : Command.of(Path.of("/usr/bin/setpriv"), "--reuid=" + user, "--regid=" + user, "--init-groups", "/usr/bin/munge", "-n");
    return munge.run().requireSuccess().stdout().strip();
  }

  @Test
  void aCredentialProvesWhoMadeItOnce() {
    Instance slurm = Testbed.require("slurm22-c1"); // its munged is the host's
    String user = slurm.get("user");
    String made = credential(user);
    assertEquals(Optional.of(user), users.user(made));
    assertEquals(Optional.empty(), users.user(made), "a credential decodes once: one seen on the wire proves no one");
    assertEquals(Optional.of("root"), users.user(credential(null)));
  }

  @Test
  void aForgedOrChangedCredentialProvesNoOne() {
    Testbed.require("slurm22-c1");
    String made = credential(null);
    int middle = made.length() / 2;
    String changed = made.substring(0, middle) + (made.charAt(middle) == 'A' ? 'B' : 'A') + made.substring(middle + 1);
    assertEquals(Optional.empty(), users.user(changed));
    assertEquals(Optional.empty(), users.user("MUNGE:" + "A".repeat(64) + ":"));
    assertEquals(Optional.empty(), users.user("not a credential; rm -rf /"));
    assertEquals(Optional.empty(), new MungeUsers(List.of("/nonexistent/unmunge")).user(credential(null)), "no unmunge: no one");
  }
}
