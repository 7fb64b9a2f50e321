/**
 * Reading Standard Workload Format (SWF) logs of the Parallel Workloads Archive: gzip or plain,
 * {@code ;} header lines, -1 for unknown, decimal times, files without a header. A malformed line
 * is refused with the file, the line number and the reason.
 */
package org.coalition.simulator.swf;
