package org.coalition.coordination.zookeeper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/** Nodes a client creates without an explicit ACL: all rights to their creator, read to others. */
final class OwnNodesAclProvider implements ACLProvider {
  private final List<ACL> acl;

  OwnNodesAclProvider(Id self) {
    // ZooKeeper asks its ACL lists contains(null); List.of throws there, so these are ArrayLists.
    this.acl = Collections.unmodifiableList(new ArrayList<>(List.of(new ACL(Perms.ALL, self), new ACL(Perms.READ, Ids.ANYONE_ID_UNSAFE))));
  }

  @Override
  public List<ACL> getDefaultAcl() {
    return acl;
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return acl;
  }
}
