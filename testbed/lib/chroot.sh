# The Debian 13 ("trixie") chroot that runs Slurm 24.11 and HTCondor 23.9.
# Debian 12 has neither; a chroot runs them next to the host's daemons (shared/TESTBED.md §2).
# Sourced by testbed/up and testbed/down.

# ensure_chroot PACKAGE...: make the chroot once (cached), mount what it needs, copy the
# accounts, and install the named packages inside it when missing.
ensure_chroot() {
  ensure_host_packages debootstrap
  if [ ! -x "$TB_CHROOT/usr/bin/apt-get" ]; then
    local mirror=${TB_MIRROR:-$(host_mirror)}
    [ -n "$mirror" ] || die "no Debian mirror found in apt's sources; set COALITION_DEBIAN_MIRROR to one"
    say "creating the Debian 13 chroot in $TB_CHROOT from $mirror (once; it is cached between runs)"
    rm -rf "$TB_CHROOT.partial"
    env $(apt_proxy_env) debootstrap --variant=minbase trixie "$TB_CHROOT.partial" "$mirror" >"$TB_RUN/debootstrap.log" 2>&1 \
      || { log_tail "$TB_RUN/debootstrap.log"; die "debootstrap of trixie failed"; }
    # The chroot is a test system: dpkg need not sync every file it unpacks.
    echo force-unsafe-io >"$TB_CHROOT.partial/etc/dpkg/dpkg.cfg.d/coalition-unsafe-io"
    mv "$TB_CHROOT.partial" "$TB_CHROOT"
  fi
  chroot_mounts
  # Without /etc/hosts every Slurm command fails with getaddrinfo errors (TESTBED.md).
  cp /etc/hosts "$TB_CHROOT/etc/hosts"
  cp /etc/resolv.conf "$TB_CHROOT/etc/resolv.conf" 2>/dev/null || true
  local u name uid home shell
  for u in "$TB_REST_USER:$TB_REST_UID:/nonexistent:/usr/sbin/nologin" "$TB_USER:$TB_USER_UID:/home/$TB_USER:/bin/bash" \
      "$TB_POOL_USER:$TB_POOL_UID:/home/$TB_POOL_USER:/bin/bash"; do
    IFS=: read -r name uid home shell <<<"$u"
    chroot "$TB_CHROOT" getent passwd "$name" >/dev/null || {
      chroot "$TB_CHROOT" groupadd --gid "$uid" "$name"
      chroot "$TB_CHROOT" useradd --uid "$uid" --gid "$uid" --home-dir "$home" --shell "$shell" "$name"
    }
  done
  mkdir -p "$TB_CHROOT/home/$TB_USER" && chown "$TB_USER_UID:$TB_USER_UID" "$TB_CHROOT/home/$TB_USER"

  local missing=() p
  for p in "$@"; do
    chroot "$TB_CHROOT" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing in the chroot: ${missing[*]}"
  # Services must not start from package scripts: the testbed starts what it needs itself.
  printf '#!/bin/sh\nexit 101\n' >"$TB_CHROOT/usr/sbin/policy-rc.d"; chmod 755 "$TB_CHROOT/usr/sbin/policy-rc.d"
  chroot "$TB_CHROOT" env DEBIAN_FRONTEND=noninteractive $(apt_proxy_env) sh -c \
    "apt-get update -q && apt-get install -y -q --no-install-recommends $*" >"$TB_RUN/apt-chroot.log" 2>&1 \
    || { log_tail "$TB_RUN/apt-chroot.log"; die "could not install ${missing[*]} in the chroot"; }
}

mounted() { grep -q " $1 " /proc/mounts; }

chroot_mounts() {
  mounted "$TB_CHROOT/proc" || mount -t proc proc "$TB_CHROOT/proc" || die "cannot mount /proc in the chroot"
  mkdir -p "$TB_CHROOT$TB_RUN"
  mounted "$TB_CHROOT$TB_RUN" || mount --bind "$TB_RUN" "$TB_CHROOT$TB_RUN" \
    || die "cannot bind-mount $TB_RUN into the chroot"
  # The host's Java, read-only at the same path: Coalition's pilots run 'java -jar' on the node
  # (a real site installs Java on its nodes; Debian 13's glibc runs Debian 12's JDK).
  # Debian's JDK keeps its configuration in /etc (conf/security/java.security is a link there),
  # and its CA certificates in /etc/ssl/certs/java: those come along.
  local d
  for d in $(jdk_folders); do
    mkdir -p "$TB_CHROOT$d"
    mounted "$TB_CHROOT$d" || mount --bind -o ro "$d" "$TB_CHROOT$d" || die "cannot bind-mount $d into the chroot"
  done
}

# The host JDK's folders a java process needs: its home, its /etc configuration, its CA store.
jdk_folders() {
  local jdk conf
  jdk=$(host_jdk)
  [ -n "$jdk" ] || return 0
  echo "$jdk"
  conf=$(readlink -f "$jdk/conf/security/java.security")
  [ -n "$conf" ] && [ "${conf#"$jdk"}" = "$conf" ] && dirname "$(dirname "$conf")"
  [ -d /etc/ssl/certs/java ] && echo /etc/ssl/certs/java
  return 0
}

# The host JDK's home (from the java on the PATH), or nothing.
host_jdk() {
  local java
  java=$(command -v java) || return 0
  dirname "$(dirname "$(readlink -f "$java")")"
}

# Unmount when nothing of ours runs in the chroot any more (testbed/down).
chroot_unmount_if_idle() {
  [ -d "$TB_CHROOT" ] || return 0
  local d
  for d in "$TB_RUN"/slurm24-* "$TB_RUN"/condor "$TB_RUN"/munge-chroot; do
    [ -d "$d" ] || continue
    ls "$d"/*.pid >/dev/null 2>&1 && return 0
  done
  local d
  for d in $(jdk_folders); do
    mounted "$TB_CHROOT$d" && umount "$TB_CHROOT$d"
  done
  mounted "$TB_CHROOT$TB_RUN" && umount "$TB_CHROOT$TB_RUN"
  mounted "$TB_CHROOT/proc" && umount "$TB_CHROOT/proc"
  return 0
}
