package org.coalition.slurm;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerFactory;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.HostProblem;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.config.ConfigSection;

/** Slurm through slurmrestd as a plug-in: reads {@code type: slurm} entries, connects {@link SlurmHandler}. */
public final class SlurmHandlerFactory implements HandlerFactory {
  static final String TYPE = "slurm";
  /** How long a token minted from the JWT key lives. */
  private static final Duration MINTED_TOKEN_LIFETIME = Duration.ofMinutes(30);

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public HandlerSettings read(String name, ConfigSection h) {
    String url = h.string("url", "", true);
    if (!url.isEmpty() && !url.startsWith("http://") && !url.startsWith("https://")) {
      h.problem("url", "slurmrestd's address must start with http:// or https://, was '" + url + "'");
    }
    Optional<Path> token = Optional.ofNullable(h.absolutePath("token-file", false));
    Optional<Path> key = Optional.ofNullable(h.absolutePath("jwt-key", false));
    if (token.isPresent() == key.isPresent()) {
      h.problem("token-file", "give exactly one of token-file (a token of the observer user) or jwt-key (Slurm's JWT key)");
    }
    String version = h.string("version", "", false);
    if (!version.isEmpty() && !version.matches("v0\\.0\\.(38|40|42)")) {
      h.problem("version", "must be v0.0.42, v0.0.40 or v0.0.38 (or left out to use the newest the server speaks), was '" + version + "'");
    }
    return new SlurmSettings(name, url, h.string("observer", "coalition", false), token, key,
        version.isEmpty() ? Optional.empty() : Optional.of(version), Optional.ofNullable(h.absolutePath("results", false)),
        h.command("scontrol", List.of("scontrol")));
  }

  @Override
  public List<HostProblem> hostProblems(HandlerSettings settings) {
    SlurmSettings slurm = (SlurmSettings) settings;
    return HostProblem.of(
        slurm.tokenFile().flatMap(f -> HostProblem.unreadableFile("token-file", f, "the observer's token file (scontrol token)")),
        slurm.jwtKey().flatMap(f -> HostProblem.unreadableFile("jwt-key", f,
            "Slurm's JWT key (the file AuthAltParameters=jwt_key names in slurm.conf)")),
        slurm.results().flatMap(f -> HostProblem.unwritableFolder("results", f,
            "the results folder (make it, owned by the daemon's user, mode 0755; docs/jobs.md)")),
        HostProblem.missingCommand("scontrol", slurm.scontrol()));
  }

  @Override
  public ResourceHandler connect(HandlerSettings settings, HandlerContext context) {
    SlurmSettings slurm = (SlurmSettings) settings;
    SlurmCredentials credentials = slurm.tokenFile().isPresent()
        ? SlurmCredentials.tokenFile(slurm.observer(), slurm.tokenFile().get())
        : SlurmCredentials.key(slurm.jwtKey().orElseThrow(), MINTED_TOKEN_LIFETIME, Clock.systemUTC());
    SlurmConfig config = SlurmConfig.of(slurm.url(), credentials, slurm.observer()).withScontrol(slurm.scontrol());
    config = slurm.version().map(config::withVersion).orElse(config);
    config = slurm.results().map(config::withResults).orElse(config);
    return SlurmHandler.connect(config);
  }
}
