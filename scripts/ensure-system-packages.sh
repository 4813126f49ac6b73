#!/bin/sh
# The system packages the tests need besides Node: python3, which runs the reference verifier (tools/verify_log.py)
# in test/reference-verifier.test.ts. Idempotent: installs only when python3 is not on PATH, with apt-get (Debian,
# Ubuntu; as root, or through sudo); elsewhere it says what to install and fails.
set -eu
if command -v python3 >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "python3 is not on PATH and there is no apt-get: install Python 3 to run the tests" >&2
  exit 1
fi
as_root=""
if [ "$(id -u)" -ne 0 ]; then
  as_root="sudo"
fi
echo "python3 is not on PATH: installing it with apt-get" >&2
$as_root apt-get update
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y python3
