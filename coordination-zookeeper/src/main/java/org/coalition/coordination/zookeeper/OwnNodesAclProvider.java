package org.coalition.coordination.zookeeper;

import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.data.ACL;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;

/** Nodes a client creates without an explicit ACL: its own ({@link FederationAcls#own}). */
final class OwnNodesAclProvider implements ACLProvider {
  private final List<ACL> acl;

  OwnNodesAclProvider(Identity self) {
    this.acl = FederationAcls.own(self);
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
