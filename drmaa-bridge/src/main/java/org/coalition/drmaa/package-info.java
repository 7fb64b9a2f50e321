/** DRMAA 1.0 for Java over JNA to any libdrmaa.so (Grid Engine, slurm-drmaa, older HTCondor); no JNI compile, no Python. */
package org.coalition.drmaa;
