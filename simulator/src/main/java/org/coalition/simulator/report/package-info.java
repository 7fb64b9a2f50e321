/** Pictures of simulation results, for people who would rather look than read. */
package org.coalition.simulator.report;
