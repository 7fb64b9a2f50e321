package org.coalition.daemon;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An HTTP response body collected into memory up to a limit: past {@code limit} bytes the
 * subscription is cancelled (the connection closes) and the body fails with {@link TooLarge}, so
 * a peer that sends without end costs this daemon at most {@code limit} bytes. The JDK's
 * {@code BodyHandlers} have no bound of their own.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
  private final int limit;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private Flow.Subscription subscription;

  BoundedBody(int limit) {
    this.limit = limit;
  }

  /** The body passed its limit. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(String message) {
      super(message);
    }
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    this.subscription = s;
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      if (bytes.size() + (long) b.remaining() > limit) {
        subscription.cancel();
        result.completeExceptionally(new TooLarge("larger than " + limit + " bytes"));
        return;
      }
      byte[] chunk = new byte[b.remaining()];
      b.get(chunk);
      bytes.write(chunk, 0, chunk.length);
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(bytes.toByteArray());
  }
}
