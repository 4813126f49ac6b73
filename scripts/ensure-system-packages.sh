#!/bin/sh
# The system packages the tests need besides Node, installed with apt-get (Debian, Ubuntu; as root, or through sudo)
# only when missing; elsewhere it says what to install and fails. No browser or binary is ever downloaded otherwise.
# - python3, which runs the reference verifier (tools/verify_log.py) in test/reference-verifier.test.ts;
# - with --slow (the slow tier): postgresql, whose initdb, pg_ctl and pg_basebackup start a cluster of the tests' own
#   on loopback (test/support/postgres-cluster.ts; Debian keeps them in /usr/lib/postgresql/<version>/bin), and
#   chromium, which the web page's tests drive (test/slow/web-play.test.ts).
set -eu
missing=""
if ! command -v python3 >/dev/null 2>&1; then
  missing="python3"
fi
if [ "${1:-}" = "--slow" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing="$missing postgresql"
  fi
  if [ ! -x /usr/bin/chromium ]; then
    missing="$missing chromium"
  fi
fi
if [ -z "$missing" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing:$missing, and there is no apt-get: install them to run the tests" >&2
  exit 1
fi
as_root=""
if [ "$(id -u)" -ne 0 ]; then
  as_root="sudo"
fi
echo "missing:$missing; installing with apt-get" >&2
$as_root apt-get update
# shellcheck disable=SC2086 # the list is words
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
