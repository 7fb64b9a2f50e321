/**
 * The discrete-event simulator that drives the {@code policy} code unchanged, with its trace
 * reader ({@link org.coalition.simulator.swf}), experiment models and reports.
 */
package org.coalition.simulator;
