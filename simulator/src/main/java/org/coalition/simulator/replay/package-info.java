/** One federation over a whole log: the jobs keep their shape, the policy places them. */
package org.coalition.simulator.replay;
