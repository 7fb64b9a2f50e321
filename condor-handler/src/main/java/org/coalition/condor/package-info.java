/** HTCondor through its JSON-speaking command-line tools, and DRMAA where a site still has it. */
package org.coalition.condor;
