/** The discrete-event engine the trace models run on. */
package org.coalition.simulator.engine;
