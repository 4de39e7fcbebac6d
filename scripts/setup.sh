#!/usr/bin/env bash
# Installs what Frugal needs on a fresh Debian machine: PAPI (libpapi-dev, which ships papi.pc),
# pkg-config, zlib (CZlib, the origin's deflate measure), OpenSSL (COpenSSL, HTTPS through a
# run's proxy; libssl-dev ships openssl.pc) and SQLite (CSQLite, the history store;
# libsqlite3-dev ships sqlite3.pc).
# Swift itself must already be installed (swift.org toolchain).
#   scripts/setup.sh                  # build and test prerequisites
#   scripts/setup.sh --ci             # and what CI's tests use so they run rather than skip:
#                                     # Chromium (the HTML screenshot test) and perf (linux-perf,
#                                     # the black-box wakeups checked against perf stat) and
#                                     # curl (the HTTPS tests' client), strace (the
#                                     # SIGINT-while-writing test), and the perfetto Python
#                                     # package (the traces' independent reader, from PyPI)
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: swift is not on PATH; install a Swift 6.1+ toolchain from swift.org first" >&2
  exit 1
fi

# Each header and the package that provides it.
missing=()
[ -f /usr/include/papi.h ] && pkg-config --exists papi 2>/dev/null || missing+=(libpapi-dev pkg-config)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
[ -f /usr/include/openssl/ssl.h ] && pkg-config --exists openssl 2>/dev/null || missing+=(libssl-dev pkg-config)
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
if [ "${1:-}" = "--ci" ] || [ "${1:-}" = "--with-chromium" ]; then
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
  command -v perf >/dev/null 2>&1 || missing+=(linux-perf)
  # The WeatherApp example's check (scripts/ci-weather.sh) judges its report with jq.
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  # The HTTPS tests run the real curl through a run's proxy (CLITests+HTTPS.swift).
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  # The SIGINT-while-writing test delays the report's renames with strace's syscall injection.
  command -v strace >/dev/null 2>&1 || missing+=(strace)
fi
# The independent reader of Frugal's Perfetto traces (scripts/perfetto-check.py, run by the trace
# tests): Perfetto's published schema compiled for Python, with Google's protobuf runtime, from PyPI.
if [ "${1:-}" = "--ci" ] && ! python3 -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2' >/dev/null 2>&1; then
  echo "setup: installing the perfetto and protobuf Python packages (pip)" >&2
  # Debian's own Python refuses pip outside a venv (PEP 668); these two packages touch nothing of Debian's.
  python3 -m pip install --quiet --disable-pip-version-check perfetto protobuf 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages perfetto protobuf \
    || echo "setup: could not install the perfetto Python package; the trace tests will skip their independent reader" >&2
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "setup: ${missing[*]} missing and this user is not root and has no sudo; ask an administrator to run: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "setup: installing ${missing[*]} (apt-get)" >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
pkg-config --exists papi || { echo "setup: papi.pc still not found after installing libpapi-dev" >&2; exit 1; }
pkg-config --exists openssl || { echo "setup: openssl.pc still not found after installing libssl-dev" >&2; exit 1; }
