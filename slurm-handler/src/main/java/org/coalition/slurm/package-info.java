/** Slurm through slurmrestd, with clients generated from the OpenAPI documents of each supported REST version. */
package org.coalition.slurm;
