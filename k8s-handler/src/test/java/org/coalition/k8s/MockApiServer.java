package org.coalition.k8s;

import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * fabric8's Kubernetes mock server in CRUD mode, started, answering {@code /version} as an API
 * server does (its CRUD dispatcher alone answers that path with a list of everything; the mixed
 * one answers it from the server's version). Expectations set
 * with {@code expect()} are answered before the CRUD store: a test can make one path misbehave.
 */
final class MockApiServer {
  static final String VERSION = "v1.31.0-mock";

  private MockApiServer() {}

  static KubernetesMockServer start() {
    Map<ServerRequest, Queue<ServerResponse>> answers = new HashMap<>();
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), answers, new KubernetesMixedDispatcher(answers), false,
        new VersionInfo.Builder().withMajor("1").withMinor("31").withGitVersion(VERSION).build());
    server.init();
    return server;
  }
}
