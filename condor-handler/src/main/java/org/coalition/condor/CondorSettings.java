package org.coalition.condor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.coalition.handler.HandlerSettings;

/**
 * A site file's {@code type: condor} entry: HTCondor's tools in {@code bin} or on the PATH;
 * {@code asUser} is the command before {@code condor_submit} that submits as a pilot's account
 * ({@code {user}} replaced); {@code defaultTimeLimit} bounds pilots that ask for none; the
 * {@code results} folder makes the pool's opted-in jobs federable, replayed by {@code replay}.
 */
public record CondorSettings(String name, Optional<Path> bin, List<String> asUser, Duration defaultTimeLimit, Optional<Path> results,
    Path replay) implements HandlerSettings {
  @Override
  public String type() {
    return CondorHandlerFactory.TYPE;
  }

  /** An HTCondor pool's users' jobs are published only when it has a results folder to replay them. */
  @Override
  public boolean publishesHomeJobs() {
    return results.isPresent();
  }

  @Override
  public String partitionRefused() {
    return "HTCondor has no partitions";
  }
}
