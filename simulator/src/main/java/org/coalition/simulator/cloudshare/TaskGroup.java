package org.coalition.simulator.cloudshare;

/**
 * The one-core one-hour tasks one log job became: a q-processor job of p hours is q * ceil(p)
 * tasks, all released with the job.
 *
 * @param site the home site (its user's site)
 * @param release hours since the start of the period
 * @param tasks how many tasks
 * @param background whether the job belongs to a local user (scenario 3): it runs only at home,
 *     before federated work, and its waits are not measured
 */
public record TaskGroup(int site, double release, int tasks, boolean background) {}
