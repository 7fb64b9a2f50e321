/** Typed, validated site configuration loaded from one YAML file. */
package org.coalition.config;
