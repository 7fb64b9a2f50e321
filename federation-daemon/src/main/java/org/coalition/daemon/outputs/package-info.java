/**
 * A run's output on its way home: stored by reference in the executor's spool
 * ({@link org.coalition.daemon.outputs.RunOutputs}), fetched by the home from the executor's daemon
 * with bounded size, time and stall ({@link org.coalition.daemon.outputs.OutputFetch}), checked and
 * unpacked into what the replay needs.
 */
package org.coalition.daemon.outputs;
