# Coalition on a Grid Engine site: the Grid Engine 8.1.9 image (docker/gridengine) with Coalition's
# Debian package (coalition.deb, which docker/build puts beside this file). One image, two roles:
#   master  the cell's qmaster, set up as docs/gridengine-home.md tells a site admin (Coalition's
#           starter method on all.q, its JSV, two qmaster_params), and the site's daemon beside it,
#           as root: users submit here (qsub -ac COALITION_FEDERATE=1 opts a job in)
#   node    an execution host (sge_execd) whose slots run the cell's jobs, Coalition's pilots and replays
# The cell's containers share the cell's common folder, /home, and Coalition's results folder
# (/var/lib/coalition/gridengine-results, read by the starter) and /var/spool/coalition (the
# federation's CA certificate the pilots trust): volumes. The site file, secrets and certificates
# are given at start (docker/up): none is in the image.
FROM coalition/gridengine:8.1
# One account per home site whose jobs run here (docs/security.md), the same ids as the Slurm images'.
RUN for u in fed-north:20101 fed-south:20102 fed-west:20103 fed-central:20104 fed-east:20105; do \
      groupadd -g "${u#*:}" "${u%:*}" && useradd -u "${u#*:}" -g "${u#*:}" -m -d "/home/${u%:*}" -s /bin/bash "${u%:*}"; \
    done
COPY coalition.deb /tmp/coalition.deb
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/coalition.deb curl \
 && rm -rf /var/lib/apt/lists/* /tmp/coalition.deb
COPY coalition-site-gridengine /usr/local/bin/
COPY site-daemon.sh /usr/local/lib/coalition/
HEALTHCHECK --interval=5s --timeout=5s --start-period=120s --retries=3 CMD ["/usr/local/bin/coalition-site-gridengine", "health"]
ENTRYPOINT ["/usr/local/bin/coalition-site-gridengine"]
CMD ["node"]
