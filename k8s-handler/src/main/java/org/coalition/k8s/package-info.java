/** Kubernetes Jobs through the fabric8 client. */
package org.coalition.k8s;
