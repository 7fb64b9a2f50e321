package org.coalition.staging;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The executor side of outputs: packs what a run created or changed in its sandbox (every file
 * whose status changed since the sandbox was handed over: written, made, copied with its old times
 * by {@code cp -p}, or given a time in the past by {@code touch -d}, which set the modification time
 * but not the status-change time; links, devices and pipes left out and named), as the account it
 * ran as ({@link AccountTar}: the job may have left links to anywhere).
 */
public final class OutputPacker {
  private OutputPacker() {}

  /**
   * Packs the files of {@code sandbox} changed or made at or after {@code handedOver} into
   * {@code target} (GNU tar's {@code --newer}: the status-change or the modification time, to the
   * nanosecond).
   *
   * @throws StagingRefused when they pass {@code maxBytes}, or tar fails
   */
  public static AccountTar.Packed pack(String account, Path sandbox, Instant handedOver, Path target, long maxBytes) {
    return AccountTar.pack(account, sandbox, List.of(String.format("--newer=@%d.%09d", handedOver.getEpochSecond(), handedOver.getNano()),
        "--", "."), target, maxBytes);
  }
}
