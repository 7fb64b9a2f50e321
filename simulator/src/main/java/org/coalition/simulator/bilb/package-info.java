/**
 * The BILB paper's model: divisible load, FCFS time-sharing per site, Poisson arrivals, gamma job
 * sizes, rounds of length T, and each site's score against the flow time it would have had alone.
 * The model's choices the paper leaves open are listed in the simulator README.
 */
package org.coalition.simulator.bilb;
