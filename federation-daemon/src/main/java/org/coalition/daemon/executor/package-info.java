/**
 * The executor side (events 2 and 3): pilots submitted for foreign jobs, each one
 * {@link org.coalition.daemon.executor.Pilot} moved by {@link org.coalition.daemon.executor.PilotLifecycle};
 * late binding (DirectContr picks the job when a pilot asks), eviction for local users, the pilot
 * journal and the recovery of pilots after a restart, and the files a pilot fetches and hands in.
 */
package org.coalition.daemon.executor;
