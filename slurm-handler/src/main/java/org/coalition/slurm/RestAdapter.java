package org.coalition.slurm;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.RequestCost;

/**
 * What every version's adapter shares: one generated API object per acting user (each with its
 * own token), and calls whose failures become categorised errors. The generated clients of two
 * versions share no type, hence {@link #status} and {@link #body} to read their exceptions.
 *
 * @param <A> the version's generated {@code SlurmApi}
 */
abstract class RestAdapter<A> implements SlurmRest {
  protected final RestEndpoint endpoint;
  protected final String observer;
  private final Map<String, A> apis = new ConcurrentHashMap<>();
  private String release = "unknown";

  RestAdapter(RestEndpoint endpoint, String observer) {
    this.endpoint = endpoint;
    this.observer = observer;
  }

  /** A generated API object acting as {@code user} (set up with {@link RestEndpoint#configure}). */
  protected abstract A newApi(String user);

  /** The HTTP status in the version's {@code ApiException}; 0 when no answer came, -1 for another exception. */
  protected abstract int status(Exception e);

  /** The answer's body in the version's {@code ApiException}. */
  protected abstract String body(Exception e);

  /** Records what the ping said. */
  protected final void connected(String slurmRelease) {
    this.release = slurmRelease == null ? "unknown" : slurmRelease;
  }

  protected final A api(String user) {
    return apis.computeIfAbsent(user, this::newApi);
  }

  @Override
  public final RequestCost cost() {
    return endpoint.cost();
  }

  @Override
  public final String release() {
    return release;
  }

  interface Call<T> {
    T run() throws Exception;
  }

  /**
   * One request. A request that met a connection the server had closed while it sat idle in the
   * client's pool (no byte of an answer came back) is sent once more on a fresh connection: seen
   * with slurmrestd 22.05 under a burst of submissions. Every call is safe to repeat then: reads
   * and holds are idempotent, and a pilot submitted twice is harmless (its twin asks for work
   * with the same pilot id and is refused).
   */
  protected final <T> T call(String what, Call<T> call) {
    try {
      return call.run();
    } catch (HandlerException e) {
      throw e;
    } catch (Exception e) {
      if (!closedBeforeAnswer(e)) {
        throw error(what, e);
      }
      try {
        return call.run();
      } catch (HandlerException again) {
        throw again;
      } catch (Exception again) {
        throw error(what, again);
      }
    }
  }

  private static boolean closedBeforeAnswer(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains("header parser received no bytes")) {
        return true;
      }
    }
    return false;
  }

  /** A poll with an update time: {@code null} when the server says nothing changed (HTTP 304). */
  protected final <T> T unlessUnchanged(String what, Call<T> call) {
    try {
      return call.run();
    } catch (HandlerException e) {
      throw e;
    } catch (Exception e) {
      if (status(e) == 304) {
        return null;
      }
      throw error(what, e);
    }
  }

  /** A job's records, or none when Slurm does not know it. */
  protected final List<SlurmJob> unlessNotFound(Call<List<SlurmJob>> call) {
    try {
      return call.run();
    } catch (HandlerException e) {
      if (e.category() == Category.NOT_FOUND) {
        return List.of();
      }
      throw e;
    } catch (Exception e) {
      throw new HandlerException(Category.INTERNAL, e.toString(), e);
    }
  }

  private HandlerException error(String what, Exception e) {
    int code = status(e);
    if (code < 0) {
      return new HandlerException(Category.INTERNAL, what + ": " + e, e);
    }
    return code == 0 ? RestErrors.noAnswer(what, endpoint.url(), e) : RestErrors.answer(what, endpoint.url(), code, body(e), e);
  }
}
