package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.coalition.slurm.rest.v0038.api.SlurmApi;
import org.coalition.slurm.rest.v0038.invoker.ApiClient;
import org.coalition.slurm.rest.v0038.invoker.ApiException;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tokens the handler signs itself with a cluster's JWT key are accepted by that cluster's real
 * slurmctld (through slurmrestd, with the generated clients), for an unprivileged user, on 22.05
 * (v0.0.38) and 24.11 (v0.0.42); a token signed with another cluster's key is refused.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmCredentialsIT {
  private static SlurmCredentials.Token token(Instance slurm, String user) {
    return SlurmCredentials.key(Path.of(slurm.get("jwt.key.file")), Duration.ofMinutes(5), Clock.systemUTC()).forUser(user);
  }

  private static SlurmApi v0038(Instance slurm, SlurmCredentials.Token t) {
    var client = new ApiClient();
    // Held jobs carry Slurm's unsigned markers (priority 4294901655) where the document says int32.
    client.setObjectMapper(RestEndpoint.fit(client.getObjectMapper()));
    client.setHttpClientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1));
    client.updateBaseUri(slurm.get("rest.url"));
    client.setReadTimeout(Duration.ofSeconds(10));
    // The generated client accepts JSON or YAML; 22.05 then answers YAML, which it cannot parse.
    client.setRequestInterceptor(b -> b.setHeader("Accept", "application/json")
        .header("X-SLURM-USER-NAME", t.user()).header("X-SLURM-USER-TOKEN", t.token()));
    return new SlurmApi(client);
  }

  @Test
  void slurm2205AcceptsAKeySignedTokenForAnUnprivilegedUser() throws Exception {
    Instance slurm = Testbed.require("slurm22-c1");
    var jobs = v0038(slurm, token(slurm, slurm.get("user"))).slurmV0038GetJobs(null);
    assertTrue(jobs.getErrors() == null || jobs.getErrors().isEmpty(), () -> String.valueOf(jobs.getErrors()));
    System.out.printf("[slurm] %s accepts a token signed by the handler for %s (v0.0.38 GET /jobs: %d jobs)%n",
        slurm.name(), slurm.get("user"), jobs.getJobs() == null ? 0 : jobs.getJobs().size());
  }

  @Test
  void slurm2411AcceptsAKeySignedTokenForAnUnprivilegedUser() throws Exception {
    Instance slurm = Testbed.require("slurm24-c1");
    SlurmCredentials.Token t = token(slurm, slurm.get("user"));
    // fully qualified: clashes with v0.0.38's ApiClient, imported for the other tests
    var client = new org.coalition.slurm.rest.v0042.invoker.ApiClient();
    client.setHttpClientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1));
    client.updateBaseUri(slurm.get("rest.url"));
    client.setReadTimeout(Duration.ofSeconds(10));
    // The generated client accepts JSON or YAML; 22.05 then answers YAML, which it cannot parse.
    client.setRequestInterceptor(b -> b.setHeader("Accept", "application/json")
        .header("X-SLURM-USER-NAME", t.user()).header("X-SLURM-USER-TOKEN", t.token()));
    // fully qualified: clashes with v0.0.38's SlurmApi, imported for the other tests
    var jobs = new org.coalition.slurm.rest.v0042.api.SlurmApi(client).slurmV0042GetJobs(null, null);
    assertTrue(jobs.getErrors() == null || jobs.getErrors().isEmpty(), () -> String.valueOf(jobs.getErrors()));
    System.out.printf("[slurm] %s accepts a token signed by the handler for %s (v0.0.42 GET /jobs/: %d jobs)%n",
        slurm.name(), slurm.get("user"), jobs.getJobs() == null ? 0 : jobs.getJobs().size());
  }

  @Test
  void aTokenSignedWithAnotherClustersKeyIsRefused() throws ApiException {
    Instance c1 = Testbed.require("slurm22-c1");
    Instance c2 = Testbed.require("slurm22-c2");
    assertNotEquals(c1.get("jwt.key.file"), c2.get("jwt.key.file"));
    // c2 answers the same call with a token of its own: the refusal below is the foreign key's doing
    assertNotNull(v0038(c2, token(c2, c2.get("user"))).slurmV0038GetJobs(null));
    var e = assertThrows(ApiException.class,
        () -> v0038(c2, token(c1, c1.get("user"))).slurmV0038GetJobs(null));
    assertNotEquals(200, e.getCode());
    System.out.printf("[slurm] slurm22-c2 refuses a token signed with c1's key: HTTP %d%n", e.getCode());
    assertTrue(e.getCode() == 401 || e.getCode() == 500, "401, or 22.05's 500 for a token slurmctld rejects: " + e.getCode());
  }
}
