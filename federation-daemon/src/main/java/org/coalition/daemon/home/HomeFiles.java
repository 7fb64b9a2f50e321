package org.coalition.daemon.home;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import org.coalition.coordination.Inputs;
import org.coalition.coordination.RunResult;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.outputs.CapturedOutput;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.RemoteRun;
import org.coalition.staging.InputPacker;
import org.coalition.staging.StagingRefused;

/**
 * The home side of a job's files (docs/jobs.md, "Files"): its declared inputs packed before it
 * is published ({@link InputPacker}), served to the site that claims it, and dropped once it
 * ran; a job whose inputs cannot go stays home, and its user is told why; the files a run
 * brought back handed to the replay.
 */
final class HomeFiles {
  private final String site;
  private final InputPacker packer;
  private final Decisions decisions;
  private final UserNotes notes;
  HomeFiles(String site, InputPacker packer, Decisions decisions, UserNotes notes) {
    this.site = site;
    this.packer = packer;
    this.decisions = decisions;
    this.notes = notes;
  }

  /**
   * The inputs {@code script} of {@code j} declares, packed.
   *
   * @throws StagingRefused when they cannot go (the reason is its message)
   * @throws UncheckedIOException when they cannot be read
   */
  Inputs pack(HomeJob j, String script) {
    return packer.pack(j.id(), j.user(), j.workDir(), script);
  }

  /** Tells that {@code j} stays home for good, for {@code reason} ({@code code}: its kind): in the decision log and to its user. */
  void told(HomeQueue h, HomeJob j, String code, String reason) {
    decisions.record("keep", "job=" + site + "/" + j.id(), code, reason + "; it runs here");
    notes.stays(h, j.id(), reason);
  }

  /** The inputs of this site's job {@code jobId}, if it declared some. */
  Optional<Path> inputs(String jobId) {
    return packer.stored(jobId);
  }

  /** The run to replay: how {@code r} ended, its output, and its files, which a home file changed after {@code left} does not give way to. */
  static RemoteRun run(RunResult r, CapturedOutput out, Instant left) {
    RemoteRun plain = RemoteRuns.of(r, out.stdout(), notedStderr(out));
    return new RemoteRun(plain.stdout(), plain.stderr(), plain.exitCode(), plain.signal(), plain.timedOut(),
        out.files().map(tar -> new RemoteRun.Files(tar, left)), plain.outOfMemory());
  }

  /** Standard error, and a line for each file the run made that does not come back (a link, a device). */
  private static byte[] notedStderr(CapturedOutput out) {
    if (out.leftOut().isEmpty()) {
      return out.stderr();
    }
    StringBuilder note = new StringBuilder();
    out.leftOut().forEach(l -> note.append("coalition: not brought back: ").append(l).append('\n'));
    byte[] extra = note.toString().getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[out.stderr().length + extra.length];
    System.arraycopy(out.stderr(), 0, all, 0, out.stderr().length);
    System.arraycopy(extra, 0, all, out.stderr().length, extra.length);
    return all;
  }

  /** The replay has its files: the fetched tar goes. */
  static void replayed(RemoteRun run) {
    run.files().ifPresent(f -> OutputFetch.deleteQuietly(f.tar()));
  }

  /** Drops the inputs of jobs no longer this site's to publish or track ({@code live}: those still are). */
  void retain(Collection<String> live) {
    packer.retain(live);
  }
}
