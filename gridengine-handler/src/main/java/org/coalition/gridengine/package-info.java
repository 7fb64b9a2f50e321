/** Grid Engine as a Coalition site: pilots through DRMAA ({@code drmaa-bridge}), observation through {@code qstat -xml}. */
package org.coalition.gridengine;
