package org.coalition.handler;

/**
 * One {@code handlers:} entry of a site file, read and checked by its {@link HandlerFactory}: a
 * record of the handler module's own. The site-file reader asks it the questions that involve the
 * rest of the file; {@code config check --json} prints its components.
 */
public interface HandlerSettings {
  /** The handler's name in the site (it prefixes job ids when a site has several). */
  String name();

  /** The {@link HandlerFactory#type()} that read it. */
  String type();

  /**
   * Whether the site's users' jobs on this system are published to the federation (it then
   * implements {@link HomeQueue}). Most systems only take foreign pilots.
   */
  default boolean publishesHomeJobs() {
    return false;
  }

  /** Whether its jobs run on the daemon's own host (the local system): the site's accounts must then exist here. */
  default boolean runsJobsOnThisHost() {
    return false;
  }

  /**
   * Why {@code pilots.partition} must stay empty with this system (it has no partitions), or null
   * when a partition is fine.
   */
  default String partitionRefused() {
    return null;
  }

  /** Checks this entry against the rest of the site file; problems go to {@code site}. */
  default void check(SiteFacts site) {}
}
