package org.coalition.staging;

import java.nio.file.Path;
import java.util.List;

/**
 * The executor side of outputs: packs what a run created or changed in its sandbox (every file
 * modified since the run started; links, devices and pipes left out and named), as the account it
 * ran as ({@link AccountTar}: the job may have left links to anywhere).
 */
public final class OutputPacker {
  private OutputPacker() {}

  /**
   * Packs the files of {@code sandbox} modified at or after {@code startEpochSeconds} into {@code target}.
   *
   * @throws StagingRefused when they pass {@code maxBytes}, or tar fails
   */
  public static AccountTar.Packed pack(String account, Path sandbox, long startEpochSeconds, Path target, long maxBytes) {
    return AccountTar.pack(account, sandbox, List.of("--newer-mtime=@" + startEpochSeconds, "--", "."), target, maxBytes);
  }
}
