#!/usr/bin/env bash
# The browser test drives Debian's Chromium: install it when it is missing (as root, or
# through sudo), so that `npm test` runs every test on a fresh machine.
set -euo pipefail
if command -v chromium > /dev/null 2>&1; then
  exit 0
fi
echo "--- installing Debian's chromium for the browser test"
as_root=""
if [ "$(id -u)" != 0 ]; then as_root="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get install -y -qq chromium > /dev/null ||
  { $as_root apt-get update -qq && $as_root apt-get install -y -qq chromium > /dev/null; }
