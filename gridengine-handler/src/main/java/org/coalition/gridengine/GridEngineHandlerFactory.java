package org.coalition.gridengine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerFactory;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.HostProblem;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.Tool;
import org.coalition.handler.config.ConfigSection;

/** Grid Engine through DRMAA as a plug-in: reads {@code type: gridengine} entries, connects {@link GridEngineHandler}. */
public final class GridEngineHandlerFactory implements HandlerFactory {
  static final String TYPE = "gridengine";
  private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Set<String> aliases() {
    return Set.of("sge");
  }

  @Override
  public Map<String, String> misnomers() {
    return Map.of("drmaa", "name the batch system behind DRMAA: 'gridengine' (the DRMAA bridge is tested with Grid Engine's libdrmaa)");
  }

  @Override
  public Optional<String> placementProblem(List<HandlerSettings> earlier, int listed) {
    return earlier.stream().anyMatch(h -> h instanceof GridEngineSettings)
        ? Optional.of("a daemon drives at most one Grid Engine cluster: DRMAA 1.0 allows one session per process")
        : Optional.empty();
  }

  @Override
  public HandlerSettings read(String name, ConfigSection h) {
    Optional<Path> library = Optional.ofNullable(h.absolutePath("library", false));
    List<String> queues = h.words("queues", List.of(), "a list of cluster queues", "[all.q, long.q]");
    queues.stream().filter(q -> !QUEUE.matcher(q).matches()).forEach(q -> h.problem("queues", "'" + q + "' is not a cluster queue name"));
    String pe = h.string("parallel-environment", "smp", false);
    if (!QUEUE.matcher(pe).matches()) {
      h.problem("parallel-environment", "'" + pe + "' is not a parallel environment's name");
    }
    String memory = h.string("memory-complex", "mem_free", false);
    if (!memory.isEmpty() && !QUEUE.matcher(memory).matches()) {
      h.problem("memory-complex", "'" + memory + "' is not a complex's name (mem_free, h_vmem, or \"\" to ask no memory)");
    }
    return new GridEngineSettings(name, library, h.command("qstat", List.of("qstat")), queues, pe,
        h.duration("default-time-limit", Duration.ofHours(1), Duration.ofSeconds(1)), memory, Optional.ofNullable(h.absolutePath("results", false)),
        Optional.ofNullable(h.absolutePath("qmaster-spool", false)).orElse(GridEngineHandler.DEFAULT_SPOOL));
  }

  @Override
  public List<HostProblem> hostProblems(HandlerSettings settings) {
    GridEngineSettings ge = (GridEngineSettings) settings;
    return HostProblem.of(
        ge.library().flatMap(f -> HostProblem.unreadableFile("library", f, "Grid Engine's libdrmaa.so (under $SGE_ROOT/lib/ARCH)")),
        ge.results().flatMap(f -> HostProblem.unwritableFolder("results", f,
            "the results folder (make it, owned by the daemon's user, mode 0755; docs/gridengine-home.md)")),
        HostProblem.missingCommand("qstat", ge.qstat()));
  }

  @Override
  public ResourceHandler connect(HandlerSettings settings, HandlerContext context) {
    GridEngineSettings ge = (GridEngineSettings) settings;
    GridEngineHandler.Config defaults = GridEngineHandler.Config.of(ge.library());
    return GridEngineHandler.connect(new GridEngineHandler.Config(ge.library(), new Tool(ge.qstat(), Map.of(),
        defaults.qstat().timeout()), ge.queues(), ge.parallelEnvironment(), ge.defaultTimeLimit(), defaults.runuser(), ge.memoryComplex(),
        ge.results(), ge.spool()));
  }
}
