package org.coalition.daemon.executor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.Inputs;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteInfo;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.outputs.BoundedFileBody;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.daemon.outputs.OutputRefused;
import org.coalition.daemon.outputs.PeerDownload;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.staging.TarBundle;

/**
 * The executor side of a job's files (docs/jobs.md, "Files"): its inputs fetched from its home's
 * daemon for the pilot that runs it (only the claim's holder is served there), checked against
 * the size and SHA-256 the job's record names; the files its run wrote, handed in by the pilot,
 * stored with its output for the home to fetch.
 */
public final class PilotFiles {
  private final BrokerSettings settings;
  private final Coordination coordination;
  private final RunOutputs outputs;
  private final PeerDownload download;

  PilotFiles(BrokerSettings settings, Coordination coordination, RunOutputs outputs, PeerDownload download) {
    this.settings = settings;
    this.coordination = coordination;
    this.outputs = outputs;
    this.download = download;
  }

  /** The most bytes of files a run here may send back (the site's {@code staging.max-job}; none without an API to serve them). */
  public long maxFilesBytes() {
    return outputs.servesHttp() ? settings.staging().maxJobBytes() : 0;
  }

  /**
   * What pilot {@code account}'s run of {@code job} is handed, with the pilot's token from now on
   * ({@code token}): in place, in its home's directory {@code place} (an identity domain shares
   * it), it takes and brings no files; otherwise its inputs come with it and its files go back.
   */
  PilotService.Assignment assignment(JobSpec job, String account, String token, Optional<String> place) {
    return new PilotService.Assignment(job.ref().toString(), account, job.cores(), job.walltimeSeconds(), job.payload(), token,
        place.isPresent() ? Inputs.NONE : job.inputs(), place.isPresent() ? 0 : maxFilesBytes(), job.environment(), place.orElse(""));
  }

  /**
   * Fetches the inputs of {@code claim}'s job from its home into {@code target}.
   *
   * @throws PilotService.Unavailable when the home did not answer (the pilot asks again)
   * @throws PilotService.PilotRefused when the job has no inputs
   * @throws OutputRefused when the home sent something else than the record names
   */
  void inputs(Claim claim, Path target) {
    Inputs inputs = claim.job().inputs();
    String home = claim.job().home();
    if (!inputs.any()) {
      throw new PilotService.PilotRefused("job " + claim.ref() + " takes no files with it");
    }
    if (!settings.takesInputsOf(claim.job())) {
      // never claimed so (the queue's filter); a job whose record changed meanwhile is bounded by this site, not its home
      throw new OutputRefused("the inputs of " + claim.ref() + " are " + inputs.bytes() + " bytes, over this site's staging.max-job of "
          + settings.staging().maxJobBytes());
    }
    String endpoint = Optional.ofNullable(coordination.knownSites().get(home)).map(SiteInfo::endpoint).orElse("");
    if (!(endpoint.startsWith("https://") || endpoint.startsWith("http://") && !download.checksPeers())) {
      throw new OutputRefused("the home " + home + " registered no endpoint its inputs can be fetched from ('"
          + PeerDownload.abbreviate(endpoint) + "')");
    }
    Path got = temporary("inputs-");
    try {
      Duration time = OutputFetch.TOTAL_TIME.plusSeconds(inputs.bytes() / OutputFetch.BYTES_PER_SECOND);
      BoundedFileBody.Received r = download.get(endpoint + "v1/inputs/" + claim.job().jobId(), home, inputs.bytes(), time, got);
      if (r.size() != inputs.bytes() || !r.sha256().equals(inputs.sha256())) {
        throw new OutputRefused("the inputs of " + claim.ref() + " arrived as " + r.size() + " bytes with SHA-256 " + r.sha256()
            + ", not the " + inputs.bytes() + " bytes and " + inputs.sha256() + " its record names");
      }
      Files.move(got, target);
    } catch (RunOutputs.Unreachable e) {
      throw new PilotService.Unavailable("the inputs of " + claim.ref() + " cannot be fetched from " + home + " now: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the inputs of " + claim.ref() + ": " + e.getMessage(), e);
    } finally {
      OutputFetch.deleteQuietly(got);
    }
  }

  /** Takes the tar of files pilot {@code pilotId}'s run wrote. */
  public void files(String pilotId, Path tar, String sha256) {
    try (InputStream in = Files.newInputStream(tar)) {
      files(pilotId, in, Files.size(tar), sha256);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the files of pilot " + pilotId + " from " + tar + ": " + e.getMessage(), e);
    }
  }

  /** Takes the tar of files pilot {@code pilotId}'s run wrote, {@code length} bytes of {@code in} with SHA-256 {@code sha256}. */
  public void files(String pilotId, InputStream in, long length, String sha256) {
    outputs.receiveFiles(pilotId, in, length, sha256, TarBundle.rawLimit(maxFilesBytes()));
  }

  /** Stores the output of pilot {@code pilotId}'s run of {@code claim}'s job, with the files it handed in. */
  RunOutputs.Stored store(String pilotId, Claim claim, byte[] stdout, byte[] stderr) {
    RunOutputs.Stored stored = outputs.store(claim.ref().home(), claim.ref().jobId() + "-" + claim.token(), stdout, stderr,
        outputs.files(pilotId));
    outputs.dropFiles(pilotId);
    return stored;
  }

  private Path temporary(String prefix) {
    try {
      return outputs.incomingFile(prefix); // the download makes it
    } catch (IOException e) {
      throw new PilotService.Unavailable("cannot make room for inputs now (is the disk full?): " + e.getMessage(), e);
    }
  }
}
