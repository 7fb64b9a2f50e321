package org.coalition.daemon.outputs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import org.coalition.staging.Checksums;

/**
 * An HTTP response body streamed into a file up to a limit, with its SHA-256: past {@code limit}
 * bytes the subscription is cancelled (the connection closes) and the body fails with
 * {@link TooLarge}, so a peer that sends without end costs this daemon at most {@code limit}
 * bytes of disk and none of memory. The JDK's {@code BodyHandlers} have no bound of their own.
 */
public final class BoundedFileBody implements HttpResponse.BodySubscriber<BoundedFileBody.Received> {
  private final long limit;
  private final Path file;
  private final CompletableFuture<Received> result = new CompletableFuture<>();
  private final MessageDigest sha;
  private FileChannel out;
  private volatile long size; // written by the subscriber alone, read by the download waiting on it
  private Flow.Subscription subscription;

  /** What arrived: the file, its size and its SHA-256 (lower-case hex). */
  public record Received(Path file, long size, String sha256) {}

  /** The body passed its limit. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(String message) {
      super(message);
    }
  }

  BoundedFileBody(Path file, long limit) {
    this.file = file;
    this.limit = limit;
    this.sha = Checksums.sha256();
  }

  /** How many bytes have arrived so far (read from another thread while the body streams). */
  long size() {
    return size;
  }

  @Override
  public CompletionStage<Received> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    this.subscription = s;
    try {
      out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (IOException e) {
      s.cancel();
      result.completeExceptionally(new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e));
      return;
    }
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    try {
      for (ByteBuffer b : items) {
        if (size + b.remaining() > limit) {
          fail(new TooLarge("larger than " + limit + " bytes"));
          return;
        }
        size += b.remaining();
        sha.update(b.duplicate());
        while (b.hasRemaining()) {
          out.write(b);
        }
      }
    } catch (IOException e) {
      fail(new UncheckedIOException("cannot write " + file + " (is the disk full?): " + e.getMessage(), e));
    }
  }

  private void fail(Throwable t) {
    subscription.cancel();
    close();
    result.completeExceptionally(t);
  }

  @Override
  public void onError(Throwable t) {
    close();
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    close();
    result.complete(new Received(file, size, Checksums.hex(sha)));
  }

  private void close() {
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      // the result says what failed
    }
  }
}
