package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.coalition.daemon.base.PeerSites;
import org.junit.jupiter.api.Test;

/**
 * Who may read a job from another host: the operator, or the job's own user with a MUNGE
 * credential; a credential is no key to anything else. The decoding is a hand-written stand-in
 * here; {@code MungeUsersIT} decodes real credentials.
 */
class ApiGateTest {
  private static final String ALICE = "MUNGE:alice-credential:";
  private static final String BOB = "MUNGE:bob-credential:";

  private final ApiGate gate = new ApiGate((pilot, token) -> { }, "operator-token-0123456789".getBytes(StandardCharsets.UTF_8),
      PeerSites.NONE, (job, site) -> false, 0,
      credential -> Optional.ofNullable(Map.of(ALICE, "alice", BOB, "bob").get(credential)),
      (job, user) -> user.equals(Map.of("7", "alice", "276_5", "alice").get(job)));

  private ApiError remote(String path, String authorization) {
    return gate.check("GET", path, authorization, -1, false, Optional.empty());
  }

  @Test
  void aUserOnAnotherHostReadsTheirOwnJobsAndNoOneElses() {
    assertNull(remote("/v1/jobs/7", "Munge " + ALICE));
    assertNull(remote("/v1/jobs/276_5", "Munge " + ALICE), "an array's task, by its name");
    ApiError other = remote("/v1/jobs/7", "Munge " + BOB);
    assertEquals(ApiError.Code.FORBIDDEN, other.code());
    assertTrue(other.getMessage().contains("job 7 is not bob's"), other.getMessage());
    ApiError unknown = remote("/v1/jobs/8", "Munge " + ALICE);
    assertEquals(ApiError.Code.FORBIDDEN, unknown.code(), "a job its batch system does not know is no one's");
  }

  @Test
  void aCredentialThatDoesNotDecodeOrOneUsedForAnythingElseOpensNothing() {
    ApiError forged = remote("/v1/jobs/7", "Munge MUNGE:forged:");
    assertEquals(ApiError.Code.FORBIDDEN, forged.code());
    assertTrue(forged.getMessage().contains("make a new one with munge -n"), forged.getMessage());
    for (ApiError e : new ApiError[] {remote("/v1/ledger", "Munge " + ALICE), remote("/v1/jobs", "Munge " + ALICE),
        gate.check("PUT", "/v1/participation", "Munge " + ALICE, 10, false, Optional.empty())}) {
      assertEquals(ApiError.Code.FORBIDDEN, e.code(), "the ledger, the list of every job, a write: the operator's");
      assertTrue(e.getMessage().contains("reads its user's own jobs only"), e.getMessage());
    }
    assertNull(remote("/v1/jobs/8", "Bearer operator-token-0123456789"), "the operator reads any job");
    assertNull(gate.check("GET", "/v1/jobs/8", null, -1, true, Optional.empty()), "reads on the daemon's host are open, as squeue is");
  }
}
