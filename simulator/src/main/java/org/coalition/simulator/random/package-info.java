/** Seeded random variates for the simulator's workload models. */
package org.coalition.simulator.random;
