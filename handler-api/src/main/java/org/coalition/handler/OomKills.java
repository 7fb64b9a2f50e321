package org.coalition.handler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * How many processes the kernel's OOM killer has killed in this process's memory cgroup: what a
 * batch system that enforces memory with cgroups (Slurm's {@code task/cgroup}) made of a pilot job
 * whose run passed its memory. Read as the pilot's own account, from cgroup v1's
 * {@code memory.oom_control} ({@code oom_kill N}) or v2's {@code memory.events}; empty where
 * neither can be read (no memory cgroup, or a batch system that puts none around its jobs). A run
 * that grows this count was killed for memory, as Slurm tells an {@code OUT_OF_MEMORY} job at home.
 */
public final class OomKills {
  private static final Path PROC_SELF_CGROUP = Path.of("/proc/self/cgroup");
  private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

  private OomKills() {}

  /** The count in this process's memory cgroup, if it can be read. */
  public static OptionalLong count() {
    try {
      return count(Files.readAllLines(PROC_SELF_CGROUP, StandardCharsets.UTF_8), CGROUP_ROOT);
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }

  /** The count for a process whose {@code /proc/self/cgroup} says {@code membership}, under the cgroup file system {@code root}. */
  static OptionalLong count(List<String> membership, Path root) {
    for (String line : membership) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
        return read(root.resolve("memory").resolve(relative(f[2])).resolve("memory.oom_control"));
      }
    }
    for (String line : membership) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && f[0].equals("0") && f[1].isEmpty()) {
        return read(root.resolve(relative(f[2])).resolve("memory.events"));
      }
    }
    return OptionalLong.empty();
  }

  private static String relative(String path) {
    String p = path.startsWith("/") ? path.substring(1) : path;
    return p.contains("..") ? "" : p;
  }

  /** The {@code oom_kill N} line of a cgroup's file. */
  private static OptionalLong read(Path file) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] w = line.trim().split("\\s+");
        if (w.length == 2 && w[0].equals("oom_kill") && w[1].matches("[0-9]{1,18}")) {
          return OptionalLong.of(Long.parseLong(w[1]));
        }
      }
    } catch (IOException e) {
      // not there or not readable: no count
    }
    return OptionalLong.empty();
  }
}
