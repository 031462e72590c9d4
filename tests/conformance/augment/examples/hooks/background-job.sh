#!/usr/bin/env bash
EVENT_DATA=$(cat)

# Start long-running task in background (don't wait)
(
  # Long-running operation here
  sleep 300
) &

# Return immediately
exit 0
