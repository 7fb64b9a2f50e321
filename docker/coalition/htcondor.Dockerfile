# Coalition on an HTCondor site: the HTCondor 23 image (docker/htcondor) with Coalition's Debian
# package (coalition.deb, which docker/build puts beside this file). One image, two roles:
#   access-point  the pool's central manager and access point (collector, negotiator, schedd, set
#                 up as docs/examples/condor-access-point.conf tells a pool admin) and the site's
#                 daemon beside them, as root: users submit here, and their opted-in jobs leave
#   execute       a startd whose slots run the pool's jobs, Coalition's pilots and replays
# The access point and the execute nodes share /var/spool/coalition (a volume): the results folder
# the replays read, and the federation's CA certificate the pilots trust. The site file, secrets
# and certificates are given at start (docker/up): none is in the image.
FROM coalition/htcondor:23
# One account per home site whose jobs run here (docs/security.md), the same ids as the Slurm images'.
RUN for u in fed-north:20101 fed-south:20102 fed-west:20103 fed-central:20104 fed-east:20105; do \
      groupadd -g "${u#*:}" "${u%:*}" && useradd -u "${u#*:}" -g "${u#*:}" -m -d "/home/${u%:*}" -s /bin/bash "${u%:*}"; \
    done
COPY coalition.deb /tmp/coalition.deb
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/coalition.deb curl \
 && rm -rf /var/lib/apt/lists/* /tmp/coalition.deb
# The access point set up as a pool admin sets one up (docs/examples/condor-access-point.conf, also
# in the package's examples): Coalition's attributes protected and dropped from submissions.
COPY condor-access-point.conf /etc/condor/config.d/60-coalition-access-point.conf
COPY coalition-site-htcondor /usr/local/bin/
COPY site-daemon.sh /usr/local/lib/coalition/
HEALTHCHECK --interval=5s --timeout=5s --start-period=120s --retries=3 CMD ["/usr/local/bin/coalition-site-htcondor", "health"]
ENTRYPOINT ["/usr/local/bin/coalition-site-htcondor"]
CMD ["execute"]
