package org.coalition.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/**
 * Reads from the API server with a bound on each request, page by page for cluster-wide lists,
 * counting requests and bytes; and the one mapping of the API server's errors to
 * {@link HandlerException} categories.
 */
final class ApiReads {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final int pageSize;

  ApiReads(KubernetesClient client, int pageSize) {
    this.client = client;
    this.pageSize = pageSize;
  }

  /** Lists a cluster-wide collection page by page, counting requests and bytes. */
  <T extends HasMetadata> List<T> list(String path, Class<? extends KubernetesResourceList<T>> type, long[] cost) {
    List<T> items = new ArrayList<>();
    String next = null;
    do {
      String url = base() + path + "?limit=" + pageSize
          + (next == null ? "" : "&continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
      String body = get(url, "list " + path);
      cost[0]++;
      cost[1] += body.getBytes(StandardCharsets.UTF_8).length;
      KubernetesResourceList<T> page;
      try {
        page = client.getKubernetesSerialization().unmarshal(body, type);
      } catch (RuntimeException e) {
        throw new HandlerException(Category.PROTOCOL, "list " + path + ": the API server's answer is not a " + type.getSimpleName() + ": "
            + e.getMessage(), e);
      }
      if (page == null || page.getItems() == null) {
        throw new HandlerException(Category.PROTOCOL, "list " + path + ": the API server's answer has no items: " + abbreviate(body));
      }
      items.addAll(page.getItems());
      next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
    } while (next != null && !next.isEmpty());
    return items;
  }

  String base() {
    return client.getMasterUrl().toString().replaceAll("/+$", "");
  }

  String get(String url, String what) {
    var http = client.getHttpClient();
    HttpResponse<String> r;
    try {
      r = http.sendAsync(http.newHttpRequestBuilder().uri(url).build(), String.class).get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HandlerException(Category.UNAVAILABLE, what + ": interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      Throwable why = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new HandlerException(Category.UNAVAILABLE, what + ": the API server at " + client.getMasterUrl() + " did not answer: " + why, e);
    }
    if (!r.isSuccessful()) {
      throw new HandlerException(category(r.code(), r.body()), what + ": HTTP " + r.code() + ": " + abbreviate(r.body()));
    }
    return r.body();
  }

  static HandlerException error(String what, KubernetesClientException e) {
    String status = e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage();
    if (e.getCode() > 0) {
      return new HandlerException(category(e.getCode(), status), what + ": HTTP " + e.getCode() + ": " + status, e);
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    boolean io = root instanceof IOException;
    return new HandlerException(io ? Category.UNAVAILABLE : Category.PROTOCOL, what + ": " + (io ? "" : "the answer cannot be read: ") + root, e);
  }

  /** 401 and 403 are credentials, except a ResourceQuota's refusal (403 "exceeded quota"), which is the request's fault. */
  static Category category(int code, String message) {
    if ((code == 401 || code == 403) && !(message != null && message.contains("exceeded quota"))) {
      return Category.AUTHENTICATION;
    }
    if (code == 404) {
      return Category.NOT_FOUND;
    }
    if (code == 0 || code == 410 || code == 429 || code >= 500) { // 410: a list's continue token expired; list again
      return Category.UNAVAILABLE;
    }
    return Category.REJECTED;
  }

  static String abbreviate(String s) {
    String t = s == null ? "" : s.strip();
    return t.length() > 300 ? t.substring(0, 300) + "..." : t;
  }
}
