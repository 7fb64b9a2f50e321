/** Discrete-event simulator driving the same policy code as the daemon; SWF trace reader; experiment runner; reports and plots. */
package org.coalition.simulator;
