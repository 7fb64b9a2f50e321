package org.coalition.handler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.handler.config.ConfigSection;

/**
 * A batch system as a plug-in: the {@code type} a site file names it by, the reader of its own
 * {@code handlers:} entry, and the handler it connects. Implementations are found with
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/org.coalition.handler.HandlerFactory}
 * file in the handler's module), so a new batch system is one new module and nothing else.
 */
public interface HandlerFactory {
  /** The name a site file gives the batch system: {@code type: slurm}. Lower-case. */
  String type();

  /** Other names a site file may use for it ({@code sge} for {@code gridengine}). */
  default Set<String> aliases() {
    return Set.of();
  }

  /**
   * Type names this factory explains instead of accepting, with the message that says what to
   * write ({@code drmaa}: name the batch system behind DRMAA).
   */
  default Map<String, String> misnomers() {
    return Map.of();
  }

  /**
   * Why this batch system cannot be listed after {@code earlier} in a site's {@code handlers:} of
   * {@code listed} entries (a second Grid Engine; the local system beside another), if it cannot.
   */
  default Optional<String> placementProblem(List<HandlerSettings> earlier, int listed) {
    return Optional.empty();
  }

  /**
   * Reads the keys of one {@code handlers:} entry other than {@code type} and {@code name}, which
   * the site-file reader owns. Problems go to {@code section}; the reader reports keys no one read.
   */
  HandlerSettings read(String name, ConfigSection section);

  /**
   * What this host lacks for {@link #connect} to get as far as the batch system with
   * {@code settings}: a key or token file it cannot read, a folder that is not there. The daemon
   * stops on these before it joins its federation, and {@code config check} reports them; a batch
   * system that does not answer is {@code config check --online}'s to find.
   */
  default List<HostProblem> hostProblems(HandlerSettings settings) {
    return List.of();
  }

  /** Connects to the batch system {@code settings} (from {@link #read}) describe. */
  ResourceHandler connect(HandlerSettings settings, HandlerContext context);
}
