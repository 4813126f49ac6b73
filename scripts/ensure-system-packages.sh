#!/bin/sh
# The system packages the tests need besides Node: python3, which runs the reference verifier (tools/verify_log.py)
# in test/reference-verifier.test.ts; with --browser (the slow tier), Debian's chromium too, which the web page's
# tests drive (test/slow/web-play.test.ts). Idempotent: installs only what is missing, with apt-get (Debian, Ubuntu;
# as root, or through sudo); elsewhere it says what to install and fails. No browser is ever downloaded otherwise.
set -eu
missing=""
if ! command -v python3 >/dev/null 2>&1; then
  missing="python3"
fi
if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  missing="$missing chromium"
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
