# Shared by the entry points of the site images (coalition-site, coalition-site-htcondor,
# coalition-site-gridengine): how a site's Coalition daemon is started and checked. Sourced, never run.
CONF=/etc/coalition
SPOOL=/var/spool/coalition

log() { printf '[%s %s] %s\n' "$(basename "$0")" "$(date -u +%H:%M:%S)" "$*"; }

# daemon_prepare RESULTS: the site file must be there; the results folder RESULTS is made the
# daemon's alone (each job's result is its user's); the federation's CA certificate (public) is
# copied to the site's shared /var/spool/coalition, where the pilots' command line names it.
daemon_prepare() {
  echo daemon >/run/coalition-role
  [ -s "$CONF/site.yaml" ] || { log "no site file at $CONF/site.yaml: give one (docker/README.md)"; exit 2; }
  install -d -m 711 "$1"
  [ ! -f "$CONF/federation-ca.p12" ] || install -D -m 644 "$CONF/federation-ca.p12" "$SPOOL/federation-ca.p12"
}

# daemon_exec: replaces this script with the daemon on $CONF/site.yaml (COALITION_DAEMON_ARGS adds
# to its command line, COALITION_JAVA_OPTS sets its JVM's options), trusting the federation's CA.
daemon_exec() {
  local trust=()
  [ ! -f "$CONF/federation-ca.p12" ] || trust=(-Djavax.net.ssl.trustStore="$CONF/federation-ca.p12"
    -Djavax.net.ssl.trustStorePassword="$(cat "$CONF/federation-ca.p12.password")")
  COALITION_JAVA_OPTS="${COALITION_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC} ${trust[*]}" \
    exec /usr/bin/coalition daemon --config "$CONF/site.yaml" ${COALITION_DAEMON_ARGS:-}
}

# daemon_answers: the daemon's API answers on its port (TLS with the federation's certificate, or
# plain HTTP on loopback); -k: the check asks only whether it serves.
daemon_answers() {
  local port=${COALITION_HTTP_PORT:-8443}
  curl -fsk -o /dev/null "https://127.0.0.1:$port/v1/status" || curl -fs -o /dev/null "http://127.0.0.1:$port/v1/status"
}

is_daemon() { [ "$(cat /run/coalition-role 2>/dev/null)" = daemon ]; }
