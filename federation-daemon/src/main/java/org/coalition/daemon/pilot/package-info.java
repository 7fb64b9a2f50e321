/**
 * What runs inside a pilot job on a compute node ({@link org.coalition.daemon.pilot.PilotAgent}:
 * ask for work, run it as the mapped account, heartbeat, report) and the protocol it speaks with
 * its daemon ({@link org.coalition.daemon.pilot.PilotService}), served over HTTP by {@code api}.
 */
package org.coalition.daemon.pilot;
