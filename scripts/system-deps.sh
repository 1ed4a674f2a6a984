#!/usr/bin/env bash
# Installs the Debian packages the whole test suite needs, only those missing:
# chromium (browser tests), node/npm (MicroPython under Node), socat (serial ptys),
# PostgreSQL (the storage suite on a real server), systemd's tools (the service unit).
set -euo pipefail

# Usage: system-deps.sh [demo]   ("demo": only what `make demo` needs, a Python venv)
need=()
command -v python3 >/dev/null 2>&1 || need+=(python3)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
if [ "${1:-}" != "demo" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v node >/dev/null 2>&1 || need+=(nodejs)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  command -v socat >/dev/null 2>&1 || need+=(socat)
  command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)  # the appliance's unit tests
  [ -x "$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | head -n1)" ] || need+=(postgresql)
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "installing Debian packages: ${need[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
