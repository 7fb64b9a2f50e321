package org.coalition.condor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerFactory;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.HostProblem;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.config.ConfigSection;

/** HTCondor through its tools as a plug-in: reads {@code type: condor} entries, connects {@link CondorHandler}. */
public final class CondorHandlerFactory implements HandlerFactory {
  static final String TYPE = "condor";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Set<String> aliases() {
    return Set.of("htcondor");
  }

  @Override
  public HandlerSettings read(String name, ConfigSection h) {
    List<String> asUser = h.command("as-user", List.of("/usr/sbin/runuser", "-u", "{user}", "--"));
    if (asUser.stream().noneMatch(w -> w.contains("{user}"))) {
      h.problem("as-user", "must contain {user} where the pilot's account goes, e.g. [/usr/sbin/runuser, -u, \"{user}\", --], was " + asUser);
    }
    return new CondorSettings(name, Optional.ofNullable(h.absolutePath("bin", false)), asUser,
        h.duration("default-time-limit", Duration.ofHours(1), Duration.ofSeconds(1)), Optional.ofNullable(h.absolutePath("results", false)),
        Optional.ofNullable(h.absolutePath("replay", false)).orElse(CondorHandler.Config.REPLAY));
  }

  @Override
  public List<HostProblem> hostProblems(HandlerSettings settings) {
    CondorSettings condor = (CondorSettings) settings;
    return HostProblem.of(
        condor.bin().flatMap(f -> HostProblem.unreadableFile("bin", f.resolve("condor_q"), "HTCondor's condor_q (bin names the folder of its tools)")),
        condor.results().flatMap(f -> HostProblem.unwritableFolder("results", f,
            "the results folder (make it, owned by the daemon's user, mode 0755; docs/jobs.md)")),
        HostProblem.missingCommand("as-user", condor.asUser()));
  }

  @Override
  public ResourceHandler connect(HandlerSettings settings, HandlerContext context) {
    CondorSettings condor = (CondorSettings) settings;
    CondorTools tools = new CondorTools(condor.bin(), condor.asUser(), Map.of(), CondorTools.onPath().timeout());
    return CondorHandler.connect(new CondorHandler.Config(tools, condor.defaultTimeLimit(), condor.results(), condor.replay()));
  }
}
