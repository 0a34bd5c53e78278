#!/bin/sh
# Entry point of the container image (Dockerfile). With no arguments, or `serve`, it starts the
# API; anything else is an `ncd` command (`docker compose run api sync brreg`, `… keys set-tier …`).
# It also runs outside a container: the app directory is the one above this script.
set -eu

APP_DIR=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
DATA_DIR=${DATA_DIR:-"$APP_DIR/data"}
export DATA_DIR

# A volume or bind mount owned by another user is the usual first-start failure of a non-root
# image: say so plainly instead of a stack trace from deep inside the database layer.
mkdir -p "$DATA_DIR" 2>/dev/null || true
if ! [ -d "$DATA_DIR" ] || ! [ -w "$DATA_DIR" ]; then
  echo "ncd: DATA_DIR $DATA_DIR is not a writable directory for user $(id -u):$(id -g);" >&2
  echo "ncd: mount a volume there, or chown it to that user." >&2
  exit 73 # EX_CANTCREAT
fi

if [ "$#" -eq 0 ]; then
  set -- serve
fi
exec node "$APP_DIR/bin/ncd.mjs" "$@"
