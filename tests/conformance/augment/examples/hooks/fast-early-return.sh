#!/usr/bin/env bash
EVENT_DATA=$(cat)

# Early return if not a launch-process tool
TOOL_NAME=$(echo "$EVENT_DATA" | jq -r '.tool_name')
if [[ "$TOOL_NAME" != "launch-process" ]]; then
  exit 0  # Not interested, return immediately
fi

# Only parse command if we got here
COMMAND=$(echo "$EVENT_DATA" | jq -r '.tool_input.command')

# Check command
if echo "$COMMAND" | grep -qE "rm -rf"; then
  echo "Blocked dangerous command" >&2
  exit 2
fi

exit 0
