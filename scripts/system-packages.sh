#!/usr/bin/env bash
# The Debian packages the test suite runs besides Node: redis-server and nginx (the multi-instance
# tests), faketime (the caching proxy's nginx on a clock the test moves), Chromium and a CJK font
# (the browser test), promtool (the metrics test). Missing ones are
# installed when this runs as root with apt-get; otherwise it fails at once, naming the command.
# `--check` only checks. Only bash builtins besides `id`, `fc-list` and `apt-get`, so a test can
# run it with a PATH of its own.
set -euo pipefail

missing() {
  local packages=()
  command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)
  command -v nginx >/dev/null 2>&1 || packages+=(nginx-light)
  command -v faketime >/dev/null 2>&1 || packages+=(faketime)
  command -v chromium >/dev/null 2>&1 || packages+=(chromium)
  local fonts=""
  if command -v fc-list >/dev/null 2>&1; then fonts=$(fc-list 2>/dev/null || true); fi
  [[ "$fonts" == *"WenQuanYi Micro Hei"* ]] || packages+=(fonts-wqy-microhei)
  command -v promtool >/dev/null 2>&1 || packages+=(prometheus)
  echo "${packages[*]}"
}

needed=$(missing)
[[ -z "$needed" ]] && exit 0

# Chromium comes with what Debian recommends beside it (as the browser test was first run); the
# servers without, so nothing more starts.
servers="" browser=""
for package in $needed; do
  case "$package" in
    chromium | fonts-wqy-microhei) browser+="${browser:+ }$package" ;;
    *) servers+="${servers:+ }$package" ;;
  esac
done
install="DEBIAN_FRONTEND=noninteractive apt-get install -y"
command_line="apt-get update"
[[ -n "$servers" ]] && command_line+=" && $install --no-install-recommends $servers"
[[ -n "$browser" ]] && command_line+=" && $install $browser"
uid=$(id -u 2>/dev/null || echo unknown)
if [[ "${1:-}" == "--check" || "$uid" != "0" ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "The tests need Debian packages that are missing: $needed" >&2
  echo "Install them as root with:" >&2
  echo "  $command_line" >&2
  exit 1
fi

echo "Installing the Debian packages the tests need: $needed" >&2
apt-get update
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # one word per package
[[ -z "$servers" ]] || apt-get install -y --no-install-recommends $servers
# shellcheck disable=SC2086
[[ -z "$browser" ]] || apt-get install -y $browser
still=$(missing)
if [[ -n "$still" ]]; then
  echo "Still missing after apt-get install: $still" >&2
  exit 1
fi
