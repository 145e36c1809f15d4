#!/usr/bin/env bash
# Make sure headless Chromium is there: tests/test_report_browser.py checks the report in a real
# browser. Installs Debian's chromium package when it is missing (about a minute: apt-get update plus
# chromium and its fonts). Set CARDSIM_NO_BROWSER=1 to skip the browser test instead.
set -euo pipefail

have_browser() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
        || { [ -n "${CARDSIM_CHROMIUM:-}" ] && command -v "$CARDSIM_CHROMIUM" >/dev/null 2>&1; }
}

if [ "${CARDSIM_NO_BROWSER:-0}" = 1 ] || have_browser; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "the report's browser test needs Chromium: install it (or set CARDSIM_CHROMIUM=/path/to/chrome)," \
         "or set CARDSIM_NO_BROWSER=1 to skip that test" >&2
    exit 2
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "installing chromium for the report's browser test" >&2
start=$SECONDS
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    chromium fonts-liberation fonts-dejavu-core >/dev/null
echo "chromium installed in $((SECONDS - start)) s" >&2
