package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which accounts are ordinary users (an identity domain maps only those), from passwd lines and login.defs. */
class LocalUsersTest {
  @Test
  void aPasswdLineGivesUidAndHomeAndOnlyForTheNameAsked() {
    assertEquals(Optional.of(new LocalUsers.User("alice", 1001, "/home/alice")),
        LocalUsers.parse("alice", "alice:x:1001:1001:Alice:/home/alice:/bin/bash\n"));
    assertEquals(Optional.empty(), LocalUsers.parse("alice", "mallory:x:1001:1001::/home/m:/bin/sh"), "another name");
    assertEquals(Optional.empty(), LocalUsers.parse("alice", "alice:x:-1:1001::/home/alice:/bin/sh"));
    assertEquals(Optional.empty(), LocalUsers.parse("alice", "alice:x:99999999999:1::/:/bin/sh"));
    assertEquals(Optional.empty(), LocalUsers.parse("alice", ""));
  }

  @Test
  void ordinaryUsersStartAtUidMinAndNeverIncludeRootOrNobody() {
    assertEquals(1000, LocalUsers.uidMin(List.of("# comment", "MAIL_DIR /var/mail")), "the default when login.defs names none");
    assertEquals(500, LocalUsers.uidMin(List.of("UID_MIN\t\t\t 500", "UID_MAX 60000")));
    assertTrue(LocalUsers.ordinary(new LocalUsers.User("alice", 1000, "/home/alice"), 1000));
    assertFalse(LocalUsers.ordinary(new LocalUsers.User("daemon", 1, "/usr/sbin"), 1000));
    assertFalse(LocalUsers.ordinary(new LocalUsers.User("root", 0, "/root"), 0), "root, whatever UID_MIN says");
    assertFalse(LocalUsers.ordinary(new LocalUsers.User("nobody", 65534, "/nonexistent"), 1000));
    assertFalse(LocalUsers.ordinary("root"), "root on this host");
    assertFalse(LocalUsers.ordinary("no-such-user-here"), "an account this host does not know");
  }
}
